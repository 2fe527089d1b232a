/** The store contract against SQLite: in memory, and in a file (WAL, the default deployment). */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after } from "node:test";
import { SqliteStore } from "../../src/backends/sqlite/store.js";
import { storeContract } from "./store-contract.js";

storeContract("sqlite in memory", async () => new SqliteStore(":memory:"));

const dir = mkdtempSync(join(tmpdir(), "cascade-contract-"));
let n = 0;
storeContract("sqlite file", async () => new SqliteStore(join(dir, `store-${n++}.db`)));
after(() => rmSync(dir, { recursive: true, force: true }));
