/**
 * @module surfaces/http/workers
 * `cascade serve --workers N`: N server processes on one port (node:cluster shares the listening socket), each
 * with its own store connection and derived indexes, so N searches run at once on N cores. One Node process
 * answers one CPU-bound search at a time; at 50 connections a single process left one of this machine's two
 * cores idle. Writes from every worker go to the one store: SQLite serializes them (every write transaction is
 * IMMEDIATE with a busy timeout; several writer processes on one store are tested with 0 errors), so no write is
 * lost or reordered within a request. Each worker keeps its own vector matrix (about 40 MB per 100,000 chunks).
 *
 * The primary only supervises: it forks the workers, replaces one that dies, and on SIGTERM or SIGINT asks every
 * worker to finish its requests in flight and waits for them. A worker whose primary is gone (killed) stops too.
 */
import cluster, { type Worker } from "node:cluster";

/** Runs in the primary until a signal; `log` writes one line to stderr. */
export async function superviseWorkers(count: number, log: (line: string) => void): Promise<void> {
  let stopping = false;
  const fork = (): Worker => cluster.fork({ CASCADE_WORKER: "1" });
  for (let i = 0; i < count; i++) fork();
  cluster.on("exit", (worker, code, signal) => {
    if (stopping) return;
    log(`cascade: worker ${worker.process.pid} exited (${signal ?? code}); starting another`);
    fork();
  });
  log(`cascade: ${count} workers serving one store`);
  await new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) return;
      stopping = true;
      log(`cascade: ${signal}: finishing requests in flight in ${count} workers`);
      const alive = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined && !w.isDead());
      if (alive.length === 0) resolve();
      let left = alive.length;
      for (const w of alive) {
        w.once("exit", () => --left === 0 && resolve());
        w.process.kill("SIGTERM");
      }
    };
    process.once("SIGTERM", () => stop("SIGTERM"));
    process.once("SIGINT", () => stop("SIGINT"));
  });
}

/** In a worker: true. Its server also stops when the primary goes away. */
export function isServerWorker(): boolean {
  return cluster.isWorker && process.env.CASCADE_WORKER === "1";
}
