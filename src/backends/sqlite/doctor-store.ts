/**
 * @module backends/sqlite/doctor-store
 * Doctor as the SQLite store (store.ts) runs it: the checks (doctor.ts) in a thread of their own when they only
 * read (doctor-thread.ts), on the store's connection when they repair; the integrity verdict recorded (damage.ts);
 * the vector index reloaded after a repair and checked itself. Apart from the facade so it stays one short method a
 * port method.
 */
import type Database from "better-sqlite3";
import type { DoctorCheck } from "../../ports/store.js";
import { unguarded, type Connection } from "./connection.js";
import { recordIntegrity } from "./damage.js";
import { guarded, runDoctor } from "./doctor.js";
import { doctorInThread } from "./doctor-thread.js";
import type { VectorIndex } from "./vector-index.js";

type Prepare = (sql: string) => Database.Statement;

/** The store's checks, repaired when `repair`, and the approximate vector index's check after them. */
export async function doctorStore(
  db: Connection,
  prepare: Prepare,
  path: string,
  vectors: VectorIndex,
  dimensions: number | null,
  repair: boolean,
  signal: AbortSignal | undefined,
): Promise<DoctorCheck[]> {
  // checks alone read in a thread of their own (a file's store: a thread cannot open an in-memory one)
  const checks =
    repair || path === ":memory:"
      ? unguarded(db, () => runDoctor(db, prepare, dimensions, repair))
      : await doctorInThread(path, dimensions, signal);
  recordIntegrity(db, checks[0]);
  if (checks.some((c) => c.repaired)) vectors.invalidate(); // reloaded from the table on next use
  const graph = guarded("approximate vector index", () => vectors.check(dimensions, repair));
  return graph ? [...checks, graph] : checks;
}
