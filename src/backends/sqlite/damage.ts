/**
 * @module backends/sqlite/damage
 * A store doctor found damaged takes no writes until a repair passes SQLite's integrity check: writing into a
 * damaged b-tree spreads the damage, and memories written then could be lost with it. Doctor records its verdict
 * in meta (so every process sees it); each write transaction reads it first (one indexed lookup).
 */
import { CascadeError } from "../../errors.js";
import type { DoctorCheck } from "../../ports/store.js";
import { guardWrites, unguarded, type Connection } from "./connection.js";

const KEY = "integrity.failed";

/** Refuses every later write transaction on `db` while doctor's last verdict on the store is "damaged". */
export function refuseWritesWhileDamaged(db: Connection, path: string): void {
  const verdict = db.prepare("SELECT value FROM meta WHERE key = ?").pluck();
  guardWrites(db, () => {
    const found = verdict.get(KEY) as string | undefined;
    if (found !== undefined) {
      throw new CascadeError("STORE_ERROR", `the store ${path} failed its integrity check (${found}); it takes no writes until cascade doctor --repair repairs it`);
    }
  });
}

/** Doctor's verdict on SQLite's integrity check, kept for the guard; a store too damaged to record it is left as it is. */
export function recordIntegrity(db: Connection, integrity: DoctorCheck): void {
  const damaged = !integrity.ok && !integrity.repaired;
  try {
    // most often nothing to change: no write then, so doctor neither waits for another writer nor needs space
    const recorded = db.prepare("SELECT value FROM meta WHERE key = ?").pluck().get(KEY);
    if (recorded === (damaged ? integrity.detail : undefined)) return;
    unguarded(db, () =>
      db.transaction(() => {
        if (damaged) db.prepare("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(KEY, integrity.detail);
        else db.prepare("DELETE FROM meta WHERE key = ?").run(KEY);
      })(),
    );
  } catch {
    // the damage itself may refuse the write; the next doctor tries again
  }
}
