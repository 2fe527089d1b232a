/**
 * @module backends/sqlite/lazy-ports
 * The SQLite store's copy and re-embedding ports (ports/copy, ports/store) as the store hands them out before their
 * modules are loaded: each method loads the store's parts (store-parts.ts) and calls the real port, except the copy
 * mark, which every open reads (api/copy-mark.ts) and which is one row of the meta table.
 */
import type { StoreCopy } from "../../ports/copy.js";
import type { StoreReembed } from "../../ports/store.js";
import type Database from "better-sqlite3";
import { copyMark } from "./copy-mark-sql.js";

type Parts = () => Promise<{ copy: StoreCopy; reembed: StoreReembed }>;

export function lazyCopy(prepare: (sql: string) => Database.Statement, parts: Parts): StoreCopy {
  return {
    read: async (section, page) => (await parts()).copy.read(section, page),
    write: async (section, records, mark) => (await parts()).copy.write(section, records, mark),
    mark: async () => copyMark(prepare),
    setMark: async (mark) => (await parts()).copy.setMark(mark),
    counts: async () => (await parts()).copy.counts(),
    fingerprint: async () => (await parts()).copy.fingerprint(),
    namespaces: async () => (await parts()).copy.namespaces(),
  };
}

export function lazyReembed(parts: Parts): StoreReembed {
  return {
    start: async (target) => (await parts()).reembed.start(target),
    progress: async () => (await parts()).reembed.progress(),
    todo: async (after, limit) => (await parts()).reembed.todo(after, limit),
    save: async (rows) => (await parts()).reembed.save(rows),
    switchOver: async () => (await parts()).reembed.switchOver(),
  };
}
