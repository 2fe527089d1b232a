/**
 * @module backends/sqlite/fields-sql
 * The metadata field index: one row per scalar metadata value (path, text, number), so that a `--filter` on a
 * metadata field is an index lookup rather than a JSON parse of every memory. Rows come from the same
 * `metadataFields` the in-memory filter uses, so SQL and memory cannot disagree about what a path holds.
 */
import type Database from "better-sqlite3";
import { matchText, metadataFields } from "../../model/matching.js";

type Prepare = (sql: string) => Database.Statement;

export function insertFields(prepare: Prepare, memoryRowid: number, metadata: Record<string, unknown>): void {
  const fields = metadataFields(metadata);
  if (fields.length === 0) return;
  const insert = prepare("INSERT INTO memory_fields (memory_rowid, path, type, text_value, num_value) VALUES (?, ?, ?, ?, ?)");
  for (const [path, value] of fields) insert.run(memoryRowid, path, typeof value, matchText(value), typeof value === "number" ? value : null);
}

/** Fills the index for memories stored before it existed (migration 10). */
export function backfillFields(db: Database.Database): void {
  const prepare = (sql: string) => db.prepare(sql);
  const rows = db.prepare("SELECT rowid, metadata FROM memories WHERE metadata <> '{}' AND kind <> 'summary'").all() as { rowid: number; metadata: string }[];
  for (const r of rows) insertFields(prepare, r.rowid, JSON.parse(r.metadata) as Record<string, unknown>);
}
