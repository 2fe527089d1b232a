/**
 * @module event-loop
 * Long work on the one thread (embedding, chunking, encoding a batch) stops now and then so that I/O that has
 * arrived is read: a server's other requests, or the answer a write in flight is waiting for. An `await` alone
 * resumes before any I/O is read; setImmediate runs after it.
 */
export function letIoIn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Items worked through between pauses: a few milliseconds of chunking, embedding or extraction. */
const ITEMS_BETWEEN_PAUSES = 64;

/** A pause before item `i` of a loop every ITEMS_BETWEEN_PAUSES items (never before the first). */
export function letIoInEvery(i: number): Promise<void> | undefined {
  return i > 0 && i % ITEMS_BETWEEN_PAUSES === 0 ? letIoIn() : undefined;
}

/** Longest stretch of work between two pauses of a pacer. */
const PAUSE_AFTER_MS = 10;

/**
 * For loops whose items cost anything from microseconds to tens of milliseconds (judging two texts, tagging a
 * block): call the returned function between items; it answers a pause once PAUSE_AFTER_MS have passed since the
 * last one, and nothing otherwise (an `await` of nothing costs a microtask, not an I/O turn).
 */
export function pacer(ms = PAUSE_AFTER_MS): () => Promise<void> | undefined {
  let since = performance.now();
  return () => {
    const now = performance.now();
    if (now - since < ms) return undefined;
    return letIoIn().then(() => {
      since = performance.now();
    });
  };
}
