/**
 * @module backends/sqlite/store-parts
 * The parts of the SQLite store (store.ts) that reading its rows does not use: the dense index, the lexical and
 * live searches, the worker threads, the copy and re-embedding ports, and the modules of its batch writes, topics,
 * doctor and purge. The store loads this module the first time one of its methods needs one of them, so that a
 * process that only opens a store to read it (`cascade stats`, `show`, `list`: api/reader.ts) does not load the
 * nineteen modules these import, nor stemmer or node:worker_threads. Built once per store; the store owns what is
 * built here and closes it.
 */
import { availableParallelism } from "node:os";
import type { StoreCopy } from "../../ports/copy.js";
import type { StoreReembed } from "../../ports/store.js";
import type { Connection } from "./connection.js";
import { sqliteStoreCopy } from "./copy-sql.js";
import { LexicalSql, SELECTIVE_CHUNKS } from "./lexical-sql.js";
import { LiveSearch } from "./live-search.js";
import { chunkCount } from "./memory-sql.js";
import type { OwnerCache } from "./owner-cache.js";
import { sqliteStoreReembed } from "./reembed-sql.js";
import type { SqliteStoreOptions } from "./store-options.js";
import { StoreThreads } from "./threads.js";
import { chunkGeneration, withGenerations } from "./version.js";
import { defaultApproximateSearch, VectorIndex } from "./vector-index.js";
import type Database from "better-sqlite3";

import * as topics from "./topics-sql.js";
import { purgeDeleted } from "./purge.js";
import { idsByImportKey } from "./import-keys-sql.js";
import { doctorStore } from "./doctor-store.js";
import { writeBatch } from "./write-batch.js";

/** What the store hands over: its connection, statements and owner cache, as its constructor made them. */
export interface PartsHost {
  path: string;
  options: SqliteStoreOptions;
  db: Connection;
  prepare: (sql: string) => Database.Statement;
  owners: OwnerCache;
}

export type StoreParts = ReturnType<typeof storeParts>;

export function storeParts({ path, options, db, prepare, owners }: PartsHost) {
  /** The reader threads and the write thread, each started the first time a large enough job comes (threads.ts). */
  const threads = new StoreThreads(path, options, () => chunkCount(prepare));
  const lexical = new LexicalSql(prepare, options.selectiveChunks ?? SELECTIVE_CHUNKS, owners, (job) => threads.sideReader(job));
  const vectors = new VectorIndex(
    // a prepared statement: db.pragma() prepares anew on every call, and this is asked several times a search
    () => prepare("SELECT data_version FROM pragma_data_version").pluck().get() as number,
    () => chunkGeneration(prepare),
    () => prepare("SELECT id, vector FROM chunks").raw().iterate() as Iterable<[number, Buffer]>,
    () => chunkCount(prepare),
    options.approximate === false
      ? null
      : { ...defaultApproximateSearch, threads: availableParallelism(), ...options.approximate, path: path === ":memory:" ? null : `${path}.hnsw` },
  );
  /** The channel reads with expiry applied (live-search.ts). */
  const live = new LiveSearch(prepare, lexical, vectors, owners, threads);
  // every vector changed (and perhaps their size): the matrix and the saved graph are rebuilt from the table
  const reembed: StoreReembed = sqliteStoreReembed(db, () => vectors.invalidate());
  /**
   * A write transaction that adds or deletes chunks, whose chunks the caller then hands to the vector index (`add`,
   * `forget`): the chunk generation is read at its start and its end, so that the index knows its own write from
   * another connection's (vector-index.ts) and does not read the table again for it.
   */
  const chunkWrite = <T>(fn: () => T): T => {
    const { result, before, after } = withGenerations(db, prepare, fn);
    vectors.ownWrite(before, after);
    return result;
  };
  const copy: StoreCopy = sqliteStoreCopy(prepare, chunkWrite, (added) => vectors.add(added));
  return {
    threads, lexical, vectors, live, reembed, copy, chunkWrite,
    // the modules of the new memories' writes, the topics, the doctor and the purge, for the store's methods
    topics, purgeDeleted, idsByImportKey, doctorStore, writeBatch,
  };
}
