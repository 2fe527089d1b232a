/**
 * Several processes, one store: two `cascade serve` child processes on one PostgreSQL database. What one writes
 * (a memory) the other finds, both ways, and a supersession written through one is seen as superseded through
 * the other. Run on PGlite served over a socket (pglite-socket with several connections: its multiplexer hands
 * a connection that is inside a transaction the session until it ends; see docs/POSTGRES.md) and, when
 * CASCADE_PG_URL is set, on that server, each run in a namespace of its own.
 */
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { after, test } from "node:test";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { newPglite } from "../src/backends/postgres/open.js";
import { serve } from "./helpers.js";
import { PG_SKIP, PG_URL } from "./pg-server.js";

/** Two servers with the default pool of 4 connections each, and room for a reconnect. */
const SOCKET_CONNECTIONS = 10;

let socket: PGLiteSocketServer | undefined;
after(async () => {
  if (!socket) return;
  await socket.stop();
  await socket.db.close();
});

async function pgliteUrl(): Promise<string> {
  const db = newPglite();
  await db.waitReady;
  socket = new PGLiteSocketServer({ db, host: "127.0.0.1", port: 0, maxConnections: SOCKET_CONNECTIONS });
  await socket.start();
  return `postgres://postgres@${socket.getServerConn()}/postgres?sslmode=disable`;
}

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });

async function twoServers(url: string): Promise<void> {
  const namespace = `two_servers_${process.pid}_${Date.now()}`;
  // one after the other: the second starts while the first already serves (its migrations done or not, both wait on one lock)
  const a = await serve(["--db", url]);
  const b = await serve(["--db", url]).catch(async (err) => {
    await stop(a.child);
    throw err;
  });
  const call = async (server: { url: string }, path: string, body: unknown) => {
    const res = await fetch(`${server.url}${path}`, { method: "POST", headers: { "content-type": "application/json", "x-cascade-namespace": namespace }, body: JSON.stringify(body) });
    const json = (await res.json()) as any;
    assert.ok(res.status < 300, `${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const hits = async (server: { url: string }, query: string) => (await call(server, "/v1/search", { query, k: 5 })).hits as { id: string; status: string; superseded_by: string[] }[];
  try {
    const first = await call(a, "/v1/memories", { text: "The billing service keeps its ledger in DynamoDB.", at: "2026-03-01T10:00:00Z" });
    assert.ok((await hits(b, "billing ledger DynamoDB")).some((h) => h.id === first.id), "B finds what A wrote");
    const second = await call(b, "/v1/memories", { text: "Canary releases now guard every checkout deploy.", at: "2026-04-01T10:00:00Z" });
    assert.ok((await hits(a, "canary releases checkout")).some((h) => h.id === second.id), "A finds what B wrote");

    await call(a, "/v1/supersede", { new: second.id, old: first.id, reason: "the ledger note is out of date" });
    const seen = (await hits(b, "billing ledger DynamoDB")).find((h) => h.id === first.id);
    assert.equal(seen?.status, "superseded", "B sees A's supersession");
    assert.deepEqual(seen?.superseded_by, [second.id]);
  } catch (err) {
    throw new Error(`${(err as Error).message}\n--- server A ---\n${a.log()}\n--- server B ---\n${b.log()}`, { cause: err });
  } finally {
    await Promise.all([stop(a.child), stop(b.child)]);
  }
}

test("two cascade serve processes on one PGlite (served over a socket): each finds what the other wrote, and its supersessions", async () => {
  await twoServers(await pgliteUrl());
});

test("two cascade serve processes on the CASCADE_PG_URL server: each finds what the other wrote, and its supersessions", { skip: PG_SKIP }, async () => {
  await twoServers(PG_URL!);
});
