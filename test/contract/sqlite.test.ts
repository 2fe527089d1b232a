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

// the lexical reads on a reader thread from the first chunk (by default from 200,000: backends/sqlite/side-reader.ts)
storeContract("sqlite file, reader thread", async () => new SqliteStore(join(dir, `store-${n++}.db`), { sideReader: { minChunks: 0 } }));
