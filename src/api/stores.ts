/**
 * @module api/stores
 * The one place that turns a store location into a backend: a SQLite file path (or ":memory:"). Everything
 * that needs stores (the SDK's openMemory, eval, bench) receives them from here, so the engine, the channels
 * and the harnesses never pick a backend themselves.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqliteStore } from "../backends/sqlite/store.js";
import type { Store, StoreMaker } from "../ports/store.js";

/** Opens the store at a location (a SQLite file, created on first write, or ":memory:"). */
export async function openStoreAt(location: string): Promise<Store> {
  return new SqliteStore(location);
}

/**
 * Throwaway stores, removed when closed: in memory (eval), or files in a new temporary folder (a bench wants
 * the disk in its timings).
 */
export function scratchStores(where: "memory" | "files" = "memory"): StoreMaker {
  if (where === "memory") return async () => new SqliteStore(":memory:");
  const dir = mkdtempSync(join(tmpdir(), "cascade-scratch-"));
  return async (name) => new SqliteStore(join(dir, `${name.replace(/[^\w.-]/g, "_")}.db`), { removeOnClose: true });
}
