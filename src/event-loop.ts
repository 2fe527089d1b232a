/**
 * @module event-loop
 * Long work on the one thread (embedding, chunking, encoding a batch) stops now and then so that I/O that has
 * arrived is read: a server's other requests, or the answer a write in flight is waiting for. An `await` alone
 * resumes before any I/O is read; setImmediate runs after it.
 */
export function letIoIn(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => (searching === 0 ? resolve() : waitForSearches(resolve))));
}

/**
 * A pause of a search's own work: the I/O turn only. A search's reads pause every 10 ms (api/paced-store) so that
 * `/health` and other requests are answered; they never wait for searches, their own included.
 */
export function letIoInNow(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Searches under way in this process. While one is, a pause of other long work (a write's extraction, detection,
 * embedding, the pyramid's refresh: every `letIoIn`) lasts until no search is left, at most SEARCH_FIRST_MS: on
 * the one thread a search and a batch's work alternated 10 ms slices, so a search of 60 ms of work answered after
 * 150-350 ms during a batch of long texts. The work is the same; only its order changes.
 */
let searching = 0;
let waiting: (() => void)[] = [];

/** Longest a pause of other work waits for searches: a steady stream of searches slows a write, never stops it. */
const SEARCH_FIRST_MS = 50;

function waitForSearches(resolve: () => void): void {
  const done = () => {
    clearTimeout(timer);
    resolve();
  };
  const timer = setTimeout(done, SEARCH_FIRST_MS);
  waiting.push(done);
}

/** Runs a search: other work's pauses wait for it (see `searching`). */
export async function asSearch<T>(task: () => Promise<T>): Promise<T> {
  searching++;
  try {
    return await task();
  } finally {
    searching--;
    if (searching === 0 && waiting.length) {
      const go = waiting;
      waiting = [];
      for (const done of go) done();
    }
  }
}

/** Items worked through between pauses: a few milliseconds of chunking, embedding or extraction. */
const ITEMS_BETWEEN_PAUSES = 64;

/** A pause before item `i` of a loop every ITEMS_BETWEEN_PAUSES items (never before the first). */
export function letIoInEvery(i: number, pause: () => Promise<void> = letIoIn): Promise<void> | undefined {
  return i > 0 && i % ITEMS_BETWEEN_PAUSES === 0 ? pause() : undefined;
}

/** Longest stretch of work between two pauses of a pacer. */
const PAUSE_AFTER_MS = 10;

/**
 * For loops whose items cost anything from microseconds to tens of milliseconds (judging two texts, tagging a
 * block): call the returned function between items; it answers a pause once PAUSE_AFTER_MS have passed since the
 * last one, and nothing otherwise (an `await` of nothing costs a microtask, not an I/O turn).
 */
export function pacer(ms = PAUSE_AFTER_MS, pause: () => Promise<void> = letIoIn): () => Promise<void> | undefined {
  let since = performance.now();
  return () => {
    const now = performance.now();
    if (now - since < ms) return undefined;
    return pause().then(() => {
      since = performance.now();
    });
  };
}
