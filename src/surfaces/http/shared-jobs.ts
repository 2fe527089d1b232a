/**
 * @module surfaces/http/shared-jobs
 * A costly read (doctor) runs once at a time per key, whatever the number of requests: every request that asks
 * while it runs waits for the same run, and a run that no request waits for any more (each client went away) is
 * aborted. Three cross-site GETs of /v1/doctor were three full integrity checks at once.
 */
export function sharedJobs<K, T>(start: (key: K, signal: AbortSignal) => Promise<T>): (key: K, signal: AbortSignal) => Promise<T> {
  const running = new Map<K, { promise: Promise<T>; waiting: number; controller: AbortController }>();
  return async (key, signal) => {
    let job = running.get(key);
    if (!job) {
      const controller = new AbortController();
      const promise = start(key, controller.signal).finally(() => running.delete(key));
      job = { promise, waiting: 0, controller };
      running.set(key, job);
    }
    const joined = job;
    joined.waiting++;
    const leave = () => --joined.waiting === 0 && joined.controller.abort();
    signal.addEventListener("abort", leave, { once: true });
    try {
      return await joined.promise;
    } finally {
      signal.removeEventListener("abort", leave);
      if (!signal.aborted) joined.waiting--;
    }
  };
}
