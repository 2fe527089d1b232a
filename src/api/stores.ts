/**
 * @module api/stores
 * The one place that turns a store location into a backend: a SQLite file path (or ":memory:"), or a
 * PostgreSQL location (`postgres://…` / `postgresql://…` URL, or `pglite:memory` / `pglite:<dir>` for PostgreSQL
 * in process; that backend is loaded only when asked for). Everything
 * that needs stores (the SDK's openMemory, eval, bench) receives them from here, so the engine, the channels
 * and the harnesses never pick a backend themselves.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CascadeError } from "../errors.js";
import { SqliteStore } from "../backends/sqlite/store.js";
import type { Store, StoreMaker } from "../ports/store.js";

/** Opens the store at a location (a SQLite file, created on first write, or ":memory:"; or a PostgreSQL location). */
export async function openStoreAt(location: string): Promise<Store> {
  if (/^(postgres|postgresql|pglite):/i.test(location)) return (await import("../backends/postgres/open.js")).openPostgresLocation(location);
  return new SqliteStore(location);
}

/** A PostgreSQL server's URL (`postgres://…` or `postgresql://…`). */
export type PostgresUrl = `postgres://${string}` | `postgresql://${string}`;

/** Where throwaway stores go: SQLite in memory or in files, PGlite in process, or a PostgreSQL server. */
export type ScratchKind = "memory" | "files" | "pglite" | PostgresUrl;

export function isPostgresUrl(value: string): value is PostgresUrl {
  return /^postgres(ql)?:\/\//i.test(value);
}

/**
 * Throwaway stores, gone when closed: in memory (eval), or a file in a temporary folder of its own (a bench wants
 * the disk in its timings), folder and all, or a fresh in-memory PGlite; on a PostgreSQL server, a namespace of
 * its own that is deleted (rows and HNSW index) when the store is closed. So a run leaves nothing behind.
 */
export function scratchStores(where: ScratchKind = "memory"): StoreMaker {
  if (where === "memory") return async () => new SqliteStore(":memory:");
  if (where === "pglite") return async () => (await import("../backends/postgres/open.js")).openPglite();
  if (isPostgresUrl(where)) {
    if (where.includes("#")) throw new CascadeError("INVALID_INPUT", "scratch stores on a server take a namespace of their own each: give the URL without a #fragment", { field: "store" });
    return async (name) => (await import("../backends/postgres/open.js")).openPostgresScratch(where, name);
  }
  return async (name) => {
    const dir = mkdtempSync(join(tmpdir(), "cascade-scratch-"));
    return new SqliteStore(join(dir, `${name.replace(/[^\w.-]/g, "_")}.db`), { scratchDir: dir });
  };
}
