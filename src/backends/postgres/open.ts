/**
 * @module backends/postgres/open
 * The ways to get a PostgresStore: a server by `postgres://` URL (a `pg` pool), or PGlite in this process
 * (in memory, or a data directory) with the two extensions the schema needs, pgvector and ltree.
 *
 * Stores of several namespaces on one location share one Database: one pool per server URL, one PGlite per
 * data directory (a data directory cannot be opened twice: two PGlite instances on it would corrupt it). The
 * Database is closed when the last store using it closes.
 */
import { PGlite } from "@electric-sql/pglite";
import { ltree } from "@electric-sql/pglite/contrib/ltree";
import { vector } from "@electric-sql/pglite-pgvector";
import { existsSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { CascadeError } from "../../errors.js";
import { pgliteDatabase, poolDatabase, type Database } from "./connection.js";
import { PostgresStore, type PostgresStoreOptions } from "./store.js";

/**
 * A PGlite instance with pgvector and ltree loaded (in memory without `dataDir`); with `pgvector: false`, ltree
 * alone, as on a server that lacks pgvector (the tests of that case).
 *
 * CASCADE_PGLITE_TEMPLATE is a test seam (scripts/run-tests.sh sets it; nothing else should): the path of a tarball
 * of a data directory as initdb leaves it (PGlite's dumpDataDir, made by test/warm-caches). A new database, in memory
 * or in a data directory that holds none yet, is unpacked from it instead of running initdb in WebAssembly, which is
 * most of what a new PGlite costs (about 4 s of CPU against 1.5 s); the suite makes dozens. The database is the same.
 * Under the same seam every PGlite (new or reopened) starts with 16 MB of shared buffers instead of PostgreSQL's
 * 128 MB: a test's database is a few MB, and setting up the larger pool costs about 0.5 s of CPU per start.
 */
export function newPglite(dataDir?: string, { pgvector = true }: { pgvector?: boolean } = {}): PGlite {
  const template = process.env.CASCADE_PGLITE_TEMPLATE;
  const fresh = dataDir === undefined || !existsSync(join(dataDir, "PG_VERSION"));
  const load = template && fresh ? { loadDataDir: templateBlob(template) } : {};
  const small = template ? { startParams: [...PGlite.defaultStartParams, "-c", "shared_buffers=16MB"] } : {};
  return new PGlite({ dataDir, extensions: pgvector ? { vector, ltree } : { ltree }, ...load, ...small });
}

/** The template's bytes, read once per process (a process of the suite may make a dozen databases from it). */
const templates = new Map<string, Buffer>();

/**
 * The template as the Blob PGlite reads with arrayBuffer(). Node 20's own Blob.arrayBuffer() reads its 40 MB in
 * small chunks through a stream and joins them: about 0.4 s of CPU per new database, a quarter of what it costs.
 * This one hands over the bytes read once, the same buffer each time: PGlite's untar only reads it, copying each
 * file into the database's own file system (checked: the bytes hash the same after several databases were made).
 */
function templateBlob(template: string): Blob {
  let bytes = templates.get(template);
  if (!bytes) templates.set(template, (bytes = readFileSync(template)));
  const held = bytes;
  return new (class extends Blob {
    override async arrayBuffer(): Promise<ArrayBuffer> {
      return (held.byteOffset === 0 && held.length === held.buffer.byteLength ? held.buffer : held.buffer.slice(held.byteOffset, held.byteOffset + held.length)) as ArrayBuffer;
    }
  })([]);
}

const open = new Map<string, { db: Database; users: number }>();

/** The Database at `key`, opened by `make` for its first user and closed after its last. */
function shared(key: string, make: () => Database): Database {
  let entry = open.get(key);
  if (!entry) open.set(key, (entry = { db: make(), users: 0 }));
  entry.users++;
  const held = entry;
  let closed = false;
  return {
    ...held.db,
    async close() {
      if (closed) return;
      closed = true;
      if (--held.users > 0) return;
      if (open.get(key) === held) open.delete(key);
      await held.db.close();
    },
  };
}

/** A store on a PostgreSQL server; `poolSize` connections at most (4 by default), shared with other stores on the same URL. */
export async function openPostgresUrl(url: string, options: PostgresStoreOptions & { poolSize?: number } = {}): Promise<PostgresStore> {
  return PostgresStore.open(shared(`url:${url}:${options.poolSize ?? ""}`, () => poolDatabase(url, { max: options.poolSize })), options);
}

let scratchCount = 0;

/**
 * A throwaway store on a PostgreSQL server: a namespace of its own (`scratch_` + process id, time, a counter and
 * `name`), deleted with its HNSW index when the store is closed, so a bench or an evaluation leaves nothing on the
 * server. A process killed before closing leaves its namespace; its name says what it was.
 */
export async function openPostgresScratch(url: string, name: string, options: PostgresStoreOptions & { poolSize?: number } = {}): Promise<PostgresStore> {
  const namespace = `scratch_${process.pid}_${Date.now().toString(36)}_${++scratchCount}_${name.replace(/[^\w.-]/g, "_")}`;
  return openPostgresUrl(url, { ...options, namespace, dropOnClose: true });
}

/** A store on PGlite in this process: a fresh in-memory database, or the data directory `dataDir` (shared by its stores). */
export async function openPglite(options: PostgresStoreOptions & { dataDir?: string } = {}): Promise<PostgresStore> {
  if (options.dataDir === undefined) return PostgresStore.open(pgliteDatabase(newPglite(), { owned: true, label: "pglite (in memory)" }), options);
  const dir = resolve(options.dataDir);
  return PostgresStore.open(
    shared(`pglite:${dir}`, () => {
      const release = lockDataDir(dir);
      const db = pgliteDatabase(newPglite(dir), { owned: true, label: `pglite:${dir}` });
      return { ...db, close: () => db.close().finally(release) };
    }),
    options,
  );
}

/**
 * PGlite takes no lock on its data directory, and two processes writing one would corrupt it (a second
 * process opens it without complaint). So Cascade keeps a lock file there holding its process id: another
 * living process's lock is refused with STORE_ERROR; a dead one's is taken over. Returns the release.
 */
function lockDataDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "cascade.lock");
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: "wx" });
      return () => {
        try {
          unlinkSync(file);
        } catch {
          // already gone
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 0) throw err;
      const holder = Number(readFileSync(file, "utf8"));
      if (holder > 0 && holder !== process.pid && alive(holder)) {
        throw new CascadeError("STORE_ERROR", `the PGlite store ${dir} is open in process ${holder}; PGlite serves one process at a time (use a postgres:// server for several)`);
      }
      unlinkSync(file); // left by a process that ended without closing: take it over
    }
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Opens the store at a PostgreSQL location: a `postgres://` or `postgresql://` URL, or `pglite:memory` /
 * `pglite:<data dir>`. A namespace other than the default travels in the fragment
 * (`postgres://host/db#namespace=team-a`, written by api/namespaces), never to the server: it is the value of
 * the namespace column this store reads and writes.
 */
export async function openPostgresLocation(location: string): Promise<PostgresStore> {
  const hash = location.indexOf("#");
  const base = hash < 0 ? location : location.slice(0, hash);
  const namespace = hash < 0 ? undefined : (new URLSearchParams(location.slice(hash + 1)).get("namespace") ?? undefined);
  if (/^pglite:/i.test(base)) {
    const dir = base.slice("pglite:".length);
    return openPglite({ namespace, dataDir: dir === "" || dir === "memory" ? undefined : dir });
  }
  return openPostgresUrl(base, { namespace });
}
