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
import { SqliteStore } from "../backends/sqlite/store.js";
import type { Store, StoreMaker } from "../ports/store.js";

/** Opens the store at a location (a SQLite file, created on first write, or ":memory:"; or a PostgreSQL location). */
export async function openStoreAt(location: string): Promise<Store> {
  if (/^(postgres|postgresql|pglite):/i.test(location)) return (await import("../backends/postgres/open.js")).openPostgresLocation(location);
  return new SqliteStore(location);
}

/**
 * Throwaway stores, gone when closed: in memory (eval), or a file in a temporary folder of its own (a bench wants
 * the disk in its timings), folder and all, so a run leaves nothing behind.
 */
export function scratchStores(where: "memory" | "files" | "pglite" = "memory"): StoreMaker {
  if (where === "memory") return async () => new SqliteStore(":memory:");
  if (where === "pglite") return async () => (await import("../backends/postgres/open.js")).openPglite();
  return async (name) => {
    const dir = mkdtempSync(join(tmpdir(), "cascade-scratch-"));
    return new SqliteStore(join(dir, `${name.replace(/[^\w.-]/g, "_")}.db`), { scratchDir: dir });
  };
}
