/**
 * @module backends/sqlite/owner-cache
 * Which memory each chunk belongs to, remembered between searches. Every channel names the memories of its
 * candidates (a hundred chunks each), and at 100,000 chunks that lookup was an eighth of a fused search's CPU:
 * each chunk's row, then its memory's row, both wide (vectors, texts), read through the page cache. The answer
 * only changes when a chunk does (added, deleted, moved to another memory), so it is kept while the chunk
 * generation stays (schema 18: a counter triggers bump with every such change, by any connection, in the change's
 * own transaction) and this connection wrote nothing (total_changes()). A chunk another process deleted is
 * therefore never named from memory, a search of a store no one writes to reads each owner once, and another
 * process's commits that touch no chunk (a re-embed's batches, edges) leave the cache as it is.
 */
import type Database from "better-sqlite3";
import { chunkVersion } from "./version.js";

type Prepare = (sql: string) => Database.Statement;

/** Entries kept at most (about 100 bytes each); the cache starts over beyond it. */
const MAX_ENTRIES = 2_000_000;

/**
 * Driven by the id list (a join, not IN: half the time of the IN form), through the narrow id indexes (schema 13),
 * which SQLite would not pick over the tables' own keys, though those read the wide rows.
 */
export const OWNERS_SQL =
  "SELECT c.id, m.id FROM json_each(?) j JOIN chunks c INDEXED BY chunks_owner ON c.id = j.value JOIN memories m INDEXED BY memories_id_by_rowid ON m.rowid = c.memory_rowid";

export class OwnerCache {
  private owners = new Map<number, string>();
  private version = "";

  constructor(private readonly stmt: Prepare) {}

  /** The memory id of each chunk that still exists (a deleted chunk is absent from the answer). */
  ownersOf(chunkIds: number[]): Map<number, string> {
    const version = chunkVersion(this.stmt);
    if (version !== this.version || this.owners.size > MAX_ENTRIES) {
      this.owners.clear();
      this.version = version;
    }
    const out = new Map<number, string>();
    const missing: number[] = [];
    for (const id of chunkIds) {
      const owner = this.owners.get(id);
      if (owner === undefined) missing.push(id);
      else out.set(id, owner);
    }
    if (missing.length === 0) return out;
    const rows = this.stmt(OWNERS_SQL)
      .raw()
      .all(JSON.stringify(missing)) as [number, string][];
    for (const [chunk, memory] of rows) {
      this.owners.set(chunk, memory);
      out.set(chunk, memory);
    }
    return out;
  }
}
