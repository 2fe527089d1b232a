/**
 * @module event-loop
 * Long work on the one thread (embedding, chunking, encoding a batch) stops now and then so that I/O that has
 * arrived is read: a server's other requests, or the answer a write in flight is waiting for. An `await` alone
 * resumes before any I/O is read; setImmediate runs after it.
 */
export function letIoIn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
