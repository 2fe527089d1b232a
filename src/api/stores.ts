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
import type { Store } from "../ports/store.js";

/** Makes a new, empty store each call, named for what it holds (a LoCoMo conversation, a bench run). */
export type StoreMaker = (name: string) => Promise<Store>;

/** Opens the store at a location (a SQLite file, created on first write, or ":memory:"). */
export async function openStoreAt(location: string): Promise<Store> {
  return new SqliteStore(location);
}

/** Throwaway SQLite stores: in memory, or files in a new temporary folder (bench runs want a real file). */
export function scratchStores(where: "memory" | "files" = "memory"): StoreMaker {
  if (where === "memory") return async () => new SqliteStore(":memory:");
  const dir = mkdtempSync(join(tmpdir(), "cascade-"));
  return async (name) => new SqliteStore(join(dir, `${name.replace(/[^\w.-]/g, "_")}.db`));
}
