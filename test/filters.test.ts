/**
 * Scopes and metadata filters: `user`/`agent`/`session`/`speaker` and metadata paths, on search, list
 * and forget, through the SDK, the CLI and HTTP. The SQL and the in-memory evaluation of a condition are checked
 * against each other on random metadata, so that the two spellings of the filter cannot drift apart.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import fc from "fast-check";
import Database from "better-sqlite3";
import { MemorySpace, openMemory, parseFilterArg, parseInstant, parseWhere, type Engine, type FieldCondition, type MemoryInput, type WhereInput } from "../src/index.js";
import { memoryPassesFilter } from "../src/query/filter.js";
import { backfillFields } from "../src/backends/sqlite/fields-sql.js";
import { startHttpServer, type RunningServer } from "../src/surfaces/http/serve.js";
import { cli, cliHere, tempDir } from "./helpers.js";

const NOW = "2026-07-01T00:00:00Z";

/** Two users, two agents, a few projects: enough that each filter keeps a known, small set. */
const corpus: MemoryInput[] = [
  { text: "Alice prefers window seats on long flights.", user: "alice", agent: "travel", at: "2026-06-01T10:00:00Z", metadata: { project: "trips", priority: 2, tags: ["travel", "seat"] } },
  { text: "Alice is allergic to peanuts.", user: "alice", agent: "health", at: "2026-06-02T10:00:00Z", metadata: { project: "health", priority: 5, source: { app: "chat" } } },
  { text: "Bob prefers aisle seats on long flights.", user: "bob", agent: "travel", at: "2026-06-03T10:00:00Z", metadata: { project: "trips", priority: "2" } },
  { text: "Bob booked the flight to Lisbon for the conference.", user: "bob", agent: "travel", session: "s-9", at: "2026-06-04T10:00:00Z", metadata: { project: "trips", due: "2026-06-20" } },
  { text: "Team decided to move the flight search service to Go.", agent: "eng", at: "2026-06-05T10:00:00Z", metadata: { project: "atlas", priority: 1, done: true } },
  { text: "Carol asked about seat upgrades on flights.", user: "carol", at: "2026-06-06T10:00:00Z", metadata: { due: "2026-07-15" } },
];

async function store(): Promise<{ engine: Engine; ids: string[]; path: string }> {
  const path = join(tempDir(), "filters.db");
  const engine = await openMemory({ path, now: parseInstant("now", NOW) });
  const r = await engine.rememberMany(corpus);
  return { engine, ids: r.ids as string[], path };
}

describe("the filter's two spellings", () => {
  test("--filter arguments parse into conditions; a bad one is refused naming --filter", () => {
    assert.deepEqual(parseFilterArg("user=alice"), { field: { scope: "user" }, op: "eq", value: "alice" });
    assert.deepEqual(parseFilterArg("priority>=2"), { field: { metadata: ["priority"] }, op: "gte", value: 2 });
    assert.deepEqual(parseFilterArg("source.app!=chat"), { field: { metadata: ["source", "app"] }, op: "ne", value: "chat" });
    assert.deepEqual(parseFilterArg("lang=en|de"), { field: { metadata: ["lang"] }, op: "in", value: ["en", "de"] });
    assert.deepEqual(parseFilterArg("due<2026-07-01"), { field: { metadata: ["due"] }, op: "lt", value: "2026-07-01" });
    assert.deepEqual(parseFilterArg("metadata.user=x"), { field: { metadata: ["user"] }, op: "eq", value: "x" });
    assert.deepEqual(parseFilterArg("note=a,b"), { field: { metadata: ["note"] }, op: "eq", value: "a,b" });
    for (const bad of ["user", "=alice", "user=", "bad key=1", "a..b=1", "x>"]) {
      assert.throws(() => parseFilterArg(bad), (e: any) => e.code === "INVALID_INPUT" && e.field === "--filter", bad);
    }
  });

  test("the JSON spelling: scalars mean eq, objects name operators; unknown operators are refused", () => {
    assert.deepEqual(parseWhere({ user: "alice", priority: { gte: 2, lt: 5 } }), [
      { field: { scope: "user" }, op: "eq", value: "alice" },
      { field: { metadata: ["priority"] }, op: "gte", value: 2 },
      { field: { metadata: ["priority"] }, op: "lt", value: 5 },
    ]);
    assert.throws(() => parseWhere({ priority: { between: [1, 2] } }), /filter\.priority.*unknown field/);
    assert.throws(() => parseWhere({ priority: {} }), /filter\.priority: name an operator/);
    assert.throws(() => parseWhere({ "drop table": 1 }), /is not a field/);
    assert.throws(() => parseWhere("user=alice"), /filter/);
  });
});

describe("filters on search, list and forget (SDK)", () => {
  let engine: Engine;
  let ids: string[];
  before(async () => ({ engine, ids } = await store()));
  after(() => engine.close());
  const hitIds = async (q: string, filter: WhereInput, k = 10) => (await engine.recall(q, { k, now: NOW, filter })).hits.map((h) => h.id).sort();
  const listIds = async (filter: WhereInput) => (await engine.list({ filter })).memories.map((m) => m.id).sort();

  test("a scope keeps search inside it, before ranking: k hits from that user when k exist", async () => {
    const alice = await engine.recall("seats on flights", { now: NOW, filter: { user: "alice" } });
    assert.equal(alice.hits[0]?.id, ids[0]);
    assert.ok(alice.hits.every((h) => h.id === ids[0] || h.id === ids[1]), "only alice's memories");
    assert.deepEqual(await hitIds("flights", { user: "bob" }, 2), [ids[2], ids[3]].sort());
    assert.deepEqual(await hitIds("flight", { agent: "eng" }), [ids[4]]);
    assert.deepEqual(await hitIds("flight", { session: "s-9" }), [ids[3]]);
  });

  test("each operator, on metadata paths, arrays and nested objects", async () => {
    assert.deepEqual(await listIds({ project: "trips" }), [ids[0], ids[2], ids[3]].sort());
    assert.deepEqual(await listIds({ priority: 2 }), [ids[0], ids[2]].sort(), "a number and its text are equal for eq");
    assert.deepEqual(await listIds({ priority: { gte: 2 } }), [ids[0], ids[1]].sort(), "ranges compare numbers with numbers only");
    assert.deepEqual(await listIds({ priority: { lt: 2 } }), [ids[4]]);
    // "tags" alone is the memory's own tags (none here); a metadata field of that name is reached by its full path
    assert.deepEqual(await listIds({ "metadata.tags": "seat" }), [ids[0]], "an array holds each of its elements");
    assert.deepEqual(await listIds({ tags: "seat" }), []);
    assert.deepEqual(await listIds({ "source.app": "chat" }), [ids[1]]);
    assert.deepEqual(await listIds({ project: { in: ["health", "atlas"] } }), [ids[1], ids[4]].sort());
    assert.deepEqual(await listIds({ project: { ne: "trips" } }), [ids[1], ids[4], ids[5]].sort(), "ne keeps memories without the field");
    assert.deepEqual(await listIds({ due: { lt: "2026-07-01" } }), [ids[3]], "ISO dates compare as text");
    assert.deepEqual(await listIds({ done: true }), [ids[4]]);
    assert.deepEqual(await listIds({ user: "alice", project: "health" }), [ids[1]], "all conditions must hold");
    assert.deepEqual(await listIds({ user: { in: ["bob", "carol"] } }), [ids[2], ids[3], ids[5]].sort());
  });

  test("show returns user and agent", async () => {
    const m = await engine.show(ids[0]);
    assert.equal(m.user, "alice");
    assert.equal(m.agent, "travel");
  });

  test("forget by filter: a dry run changes nothing, the real one forgets exactly the match; no condition is refused", async () => {
    const { engine: e, ids: mine } = await store();
    try {
      const dry = await e.forgetWhere({ filter: { user: "bob" }, dryRun: true });
      assert.deepEqual([dry.matched, dry.forgotten, dry.dry_run], [2, 0, true]);
      assert.equal((await e.stats()).memories, corpus.length);
      const real = await e.forgetWhere({ filter: { user: "bob" }, before: "2026-06-04T00:00:00Z" });
      assert.deepEqual([real.matched, real.forgotten, real.ids], [1, 1, [mine[2]]]);
      assert.equal((await e.stats()).memories, corpus.length - 1);
      await assert.rejects(e.forgetWhere({}), (err: any) => err.code === "INVALID_INPUT" && err.field === "filter");
      assert.equal((await e.stats()).memories, corpus.length - 1);
    } finally {
      await e.close();
    }
  });
});

describe("SQL and memory agree on what a condition means", () => {
  const scalar = fc.oneof(fc.constantFrom("a", "b", "2", "10", "2026-06-01"), fc.constantFrom(1, 2, 10, 2.5), fc.boolean());
  const metadata = fc.record({ x: fc.oneof(scalar, fc.array(scalar, { maxLength: 3 })), y: fc.record({ z: scalar }) }, { requiredKeys: [] });
  const condition = fc.record({
    field: fc.constantFrom<FieldCondition["field"]>({ metadata: ["x"] }, { metadata: ["y", "z"] }, { scope: "user" }),
    op: fc.constantFrom("eq", "ne", "in", "gt", "gte", "lt", "lte") as fc.Arbitrary<FieldCondition["op"]>,
    value: scalar,
  }).map((c): FieldCondition => (c.op === "in" ? { ...c, value: [c.value, "b"] } : c.op.startsWith("g") || c.op.startsWith("l") ? { ...c, value: typeof c.value === "boolean" ? 2 : c.value } : c));

  test("random metadata and conditions: the store's answer equals the in-memory check, also after a backfill", async () => {
    const path = join(tempDir(), "agree.db");
    const engine = await openMemory({ path, now: parseInstant("now", NOW) });
    try {
      const metas = fc.sample(metadata, { numRuns: 40, seed: 17 });
      await engine.rememberMany(metas.map((m, i) => ({ text: `memory number ${i}`, at: "2026-06-01T00:00:00Z", user: i % 3 === 0 ? "2" : i % 3 === 1 ? "a" : undefined, metadata: m as Record<string, unknown> })), { detect: false } as never);
      const all = (await engine.list({ limit: 1000 })).memories;
      const conditions = fc.sample(fc.array(condition, { minLength: 1, maxLength: 2 }), { numRuns: 150, seed: 5 });
      const check = async () => {
        for (const where of conditions) {
          const fromSql = (await engine.list({ where, limit: 1000 })).memories.map((m) => m.id).sort();
          const inMemory = all.filter((m) => memoryPassesFilter({ ...m, recordedAt: m.recorded_at }, { where })).map((m) => m.id).sort();
          assert.deepEqual(fromSql, inMemory, JSON.stringify(where));
        }
      };
      await check();
      // a store written before the field index existed gets it from the migration's backfill
      const db = new Database(path);
      db.exec("DELETE FROM memory_fields");
      backfillFields(db);
      db.close();
      await check();
    } finally {
      await engine.close();
    }
  });
});

describe("filters through the CLI and HTTP", () => {
  test("CLI: add --user/--agent, search/list --filter, forget --filter --dry-run, and errors exit 2", async () => {
    const db = join(tempDir(), "cli.db");
    // the CLI in this process (helpers cliHere: the same output and exit code), but the forget that writes: a process
    const add = async (text: string, ...flags: string[]) => assert.equal((await cliHere(["--db", db, "--now", NOW, "add", text, ...flags, "--json"])).status, 0);
    await add("Dana likes green tea in the morning.", "--user", "dana", "--metadata", '{"project":"kitchen","priority":3}');
    await add("Eve likes green tea after lunch.", "--user", "eve", "--agent", "cook", "--metadata", '{"project":"kitchen","priority":1}');
    const s = await cliHere(["--db", db, "--now", NOW, "search", "green tea", "--filter", "user=dana", "--json"]);
    assert.equal(s.status, 0, s.stderr);
    assert.deepEqual(s.json.hits.map((h: any) => h.text), ["Dana likes green tea in the morning."]);
    const l = await cliHere(["--db", db, "list", "--filter", "priority>=2", "--filter", "project=kitchen", "--json"]);
    assert.deepEqual(l.json.memories.map((m: any) => m.user), ["dana"]);
    const dry = await cliHere(["--db", db, "forget", "--filter", "agent=cook", "--dry-run", "--json"]);
    assert.deepEqual([dry.status, dry.json.matched, dry.json.forgotten], [0, 1, 0]);
    assert.equal((await cliHere(["--db", db, "stats", "--json"])).json.memories, 2);
    const bad = await cliHere(["--db", db, "search", "tea", "--filter", "priority"]);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--filter/);
    assert.equal(bad.stderr.trim().split("\n").length, 1);
    const none = await cliHere(["--db", db, "forget"]);
    assert.equal(none.status, 2);
    const real = cli(["--db", db, "forget", "--filter", "agent=cook", "--json"]);
    assert.deepEqual([real.status, real.json.forgotten], [0, 1]);
    assert.equal((await cliHere(["--db", db, "stats", "--json"])).json.memories, 1);
  });

  describe("HTTP", () => {
    let server: RunningServer;
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(server.url + path, { method, headers: { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: res.status, json: (await res.json()) as any };
    };
    before(async () => {
      const space = new MemorySpace(join(tempDir(), "http.db"), { now: parseInstant("now", NOW) });
      await (await space.engine()).rememberMany(corpus);
      server = await startHttpServer(space, { host: "127.0.0.1", port: 0 });
    });
    after(() => server.close());

    test("search body `filter`, GET /v1/memories?filter=, POST /v1/memories:forget, 400 naming the field", async () => {
      const s = await call("POST", "/v1/search", { query: "seats on flights", filter: { user: "bob" }, now: NOW });
      assert.equal(s.status, 200);
      assert.deepEqual([...new Set(s.json.hits.map((h: any) => h.text.split(" ")[0]))], ["Bob"]);
      const l = await call("GET", "/v1/memories?filter=project%3Dtrips&filter=priority%3E%3D2");
      assert.deepEqual(l.json.memories.map((m: any) => m.user), ["alice"]);
      const bad = await call("POST", "/v1/search", { query: "x", filter: { priority: { between: 1 } } });
      assert.equal(bad.status, 400);
      assert.match(JSON.stringify(bad.json), /filter\.priority/);
      const dry = await call("POST", "/v1/memories:forget", { filter: { user: "carol" }, dry_run: true });
      assert.deepEqual([dry.status, dry.json.matched, dry.json.forgotten], [200, 1, 0]);
      const empty = await call("POST", "/v1/memories:forget", {});
      assert.equal(empty.status, 400);
      const gone = await call("POST", "/v1/memories:forget", { filter: { user: "carol" } });
      assert.equal(gone.json.forgotten, 1);
      assert.equal((await call("GET", "/v1/memories?filter=user%3Dcarol")).json.memories.length, 0);
    });
  });
});
