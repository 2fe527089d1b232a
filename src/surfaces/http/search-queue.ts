/**
 * @module surfaces/http/search-queue
 * In a server over an in-process store (SQLite, PGlite), searches run one at a time, first come first served,
 * each in its own turn of the event loop. A search over such a store is CPU work with no real I/O between its
 * awaits, so every request whose bytes are ready when the loop polls starts its search in that same turn: at 50
 * connections one turn held ~25 searches (~300 ms), and whatever waits for the next poll (a new connection, the
 * cluster primary handing a worker its connection, a request's body) waited that long per step. Measured at
 * 100,000 chunks, 2 workers, 50 connections opened at once: the connections opened last got their first answer
 * after 1–5 s while the handler itself took ~12 ms (docs/BENCHMARKS.md). Queued, a search waits only for those
 * ahead of it and the loop polls between any two.
 *
 * Over a networked PostgreSQL a search mostly waits on the server, so searches keep overlapping there.
 */
export type Runner = <T>(task: () => Promise<T>) => Promise<T>;

export const overlapping: Runner = (task) => task();

export function oneTurnEach(): Runner {
  const waiting: Array<() => void> = [];
  let busy = false;
  const startNext = () => {
    const start = waiting.shift();
    busy = start !== undefined;
    if (start) setImmediate(start); // after this turn's I/O has been polled
  };
  return <T>(task: () => Promise<T>) =>
    new Promise<T>((resolve, reject) => {
      waiting.push(() => task().then(resolve, reject).finally(startNext));
      if (!busy) startNext();
    });
}
