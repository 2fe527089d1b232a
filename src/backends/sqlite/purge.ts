/**
 * @module backends/sqlite/purge
 * What `forget --purge` adds to a forget: deleting rows is not erasing bytes. After a plain forget SQLite keeps
 * the deleted cells on free pages, FTS5 keeps the words in segments until they are merged, the `terms`
 * vocabulary keeps every word it ever saw, and the write-ahead log keeps old page images until a checkpoint
 * (a marker once survived as 63 copies in the WAL of a running server). This pass removes each:
 *
 *   1. vocabulary rows that no chunk uses any more (df 0)            → the word itself
 *   2. FTS5 `optimize` on both indexes                             → segments merged without the deleted rows
 *   3. VACUUM with secure_delete on                                → the file rebuilt; freed pages zeroed
 *   4. wal_checkpoint(TRUNCATE)                                   → the log folded in and cut to 0 bytes
 *
 * It rewrites the whole file, so it costs time proportional to the store (seconds at 100,000 memories): a
 * deliberate act, never part of an ordinary forget. Another process reading the store at that moment can keep
 * the log from being truncated; the report says so (`checkpointed: false`) and a later purge finishes the job.
 */
import type { Connection } from "./connection.js";

export interface PurgeReport {
  /** Vocabulary words dropped because nothing uses them any more. */
  terms_dropped: number;
  /** Whether the write-ahead log was folded in and truncated to zero bytes. */
  checkpointed: boolean;
}

export function purgeDeleted(db: Connection): PurgeReport {
  const previous = db.pragma("secure_delete", { simple: true }) as number;
  db.pragma("secure_delete = ON");
  try {
    const dropped = db.transaction(() => {
      const n = db.prepare("DELETE FROM terms WHERE df <= 0").run().changes;
      db.prepare("INSERT INTO chunks_fts (chunks_fts) VALUES ('optimize')").run();
      db.prepare("INSERT INTO curated_fts (curated_fts) VALUES ('optimize')").run();
      return n;
    })();
    db.exec("VACUUM");
    const [result] = db.pragma("wal_checkpoint(TRUNCATE)") as { busy: number; log: number; checkpointed: number }[];
    return { terms_dropped: dropped, checkpointed: result.busy === 0 && result.log === 0 };
  } finally {
    db.pragma(`secure_delete = ${previous ? "ON" : "OFF"}`);
  }
}
