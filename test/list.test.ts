/**
 * Browsing memories: `list` (SDK), GET /v1/memories, /v1/stats, /v1/doctor, and the inspector's static files.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { get as httpGet } from "node:http";
import { after, before, describe, test } from "node:test";
import { DEMO_NOW, demoCorpus, MemorySpace, openMemory, parseInstant, type Engine } from "../src/index.js";
import { startHttpServer, type RunningServer } from "../src/surfaces/http/serve.js";
import { cli, cliHere, demoEngine, tempDir } from "./helpers.js";

describe("list: memories in time order, a page at a time", () => {
  let engine: Engine;
  let ids: string[];
  before(async () => ({ engine, ids } = await demoEngine()));
  after(() => engine.close());

  test("pages of 7 cover every memory once, oldest first, and the last page has no cursor", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await engine.list({ limit: 7, cursor });
      assert.ok(page.memories.length <= 7);
      seen.push(...page.memories.map((m) => m.id));
      cursor = page.next_cursor ?? undefined;
      pages++;
    } while (cursor);
    assert.equal(pages, Math.ceil(demoCorpus.length / 7));
    const byTime = [...demoCorpus.keys()].sort((a, b) => Date.parse(demoCorpus[a].at!) - Date.parse(demoCorpus[b].at!) || (ids[a] < ids[b] ? -1 : 1)).map((i) => ids[i]);
    assert.deepEqual(seen, byTime);
  });

  test("descending order, and a memory added between pages does not shift the next page", async () => {
    const first = await engine.list({ limit: 3, order: "desc" });
    assert.deepEqual(first.memories.map((m) => m.at), ["2026-06-18T13:45:00Z", "2026-06-16T10:25:00Z", "2026-06-10T16:05:00Z"]);
    const { engine: other } = await demoEngine();
    try {
      const p1 = await other.list({ limit: 2 });
      await other.remember({ text: "An early note written later.", at: "2026-01-01" });
      const p2 = await other.list({ limit: 2, cursor: p1.next_cursor! });
      assert.deepEqual(p2.memories.map((m) => m.at), ["2026-02-03T14:05:00Z", "2026-02-05T10:30:00Z"]);
    } finally {
      await other.close();
    }
  });

  test("filters: kind, topic subtree, speaker, time range", async () => {
    assert.deepEqual((await engine.list({ kinds: ["decision"] })).memories.map((m) => m.title?.slice(0, 22)), ["Decision: configuratio", "Decision: Vaultline fo", "Decision reversed: con"]);
    assert.deepEqual((await engine.list({ under: "ops.config" })).memories.map((m) => m.topic), ["ops.config", "ops.config", "ops.config"]);
    const lena = (await engine.list({ speakers: ["Lena"] })).memories;
    assert.equal(lena.length, 4);
    assert.ok(lena.every((m) => m.speaker === "Lena"));
    const april = (await engine.list({ since: "2026-04-01", until: "2026-05-01" })).memories;
    assert.deepEqual(april.map((m) => m.at.slice(0, 7)), Array(april.length).fill("2026-04"));
    assert.equal(april.length, 6);
  });

  test("status follows as_of and known_at; edges come with the page, in force or not", async () => {
    const yaml = ids[3];
    const reversal = ids[20];
    const status = async (o: object) => (await engine.list({ under: "ops.config", ...o })).memories.find((m) => m.id === yaml)!;
    assert.equal((await status({})).status, "superseded");
    assert.deepEqual((await status({})).superseded_by, [reversal]);
    assert.equal((await status({ asOf: "2026-05-06T14:59:00Z" })).status, "current");
    assert.equal((await status({ asOf: "2026-05-06T15:00:00Z" })).status, "superseded");
    assert.equal((await status({ knownAt: "2026-06-01" })).status, "current", "the edge was recorded at the demo's now");
    const page = await engine.list({ under: "ops.config", asOf: "2026-04-01" });
    assert.deepEqual(page.edges.map((e) => [e.type, e.from, e.to, e.in_force]), [["supersedes", reversal, yaml, false]]);
  });

  test("bad input names the field", async () => {
    await assert.rejects(engine.list({ cursor: "nonsense" }), /^CascadeError: cursor: not a cursor/);
    await assert.rejects(engine.list({ limit: 0 }), /limit/);
    await assert.rejects(engine.list({ limit: 1001 }), /limit/);
    await assert.rejects(engine.list({ since: "2026-13-01" }), /since: "2026-13-01"/);
    await assert.rejects(engine.list({ since: "2026-05-01", until: "2026-04-01" }), /since: must be earlier than until/);
    await assert.rejects(engine.list({ under: "no spaces" }), /under/);
    await assert.rejects(engine.list({ order: "sideways" } as never), /order is asc or desc/);
  });
});

describe("HTTP: browse routes and the inspector's files", () => {
  let server: RunningServer;
  const TOKEN = "browse-token";
  const get = async (path: string, headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }) => {
    const res = await fetch(server.url + path, { headers });
    return { status: res.status, json: (await res.json()) as any };
  };

  before(async () => {
    const space = new MemorySpace(join(tempDir(), "browse.db"), { now: parseInstant("now", DEMO_NOW) });
    await (await space.engine()).rememberMany(demoCorpus);
    server = await startHttpServer(space, { host: "127.0.0.1", port: 0, token: TOKEN });
  });
  after(() => server.close());

  test("GET /v1/memories: filters from the query string, cursor paging, errors as 400", async () => {
    const page = await get("/v1/memories?kind=decision,note&under=ops&limit=2");
    assert.equal(page.status, 200);
    assert.deepEqual(page.json.memories.map((m: any) => m.kind), ["decision", "decision"]);
    const next = await get(`/v1/memories?kind=decision&kind=note&under=ops&limit=2&cursor=${page.json.next_cursor}`);
    assert.deepEqual(next.json.memories.map((m: any) => m.at), ["2026-06-16T10:25:00Z"]);
    assert.equal(next.json.next_cursor, null);
    const marco = await get("/v1/memories?speaker=Marco&order=desc&limit=1&as_of=2026-03-01&known_at=2026-06-20");
    assert.equal(marco.json.memories[0].speaker, "Marco");
    assert.equal((await get("/v1/memories?limit=ten")).json.error.message, 'limit: a whole number from 1 to 1000, got "ten"');
    assert.equal((await get("/v1/memories?as_of=yesterday")).status, 400);
    assert.equal((await get("/v1/memories", {})).status, 401);
  });

  test("GET /v1/stats and /v1/doctor", async () => {
    const stats = await get("/v1/stats");
    assert.equal(stats.json.memories, demoCorpus.length);
    assert.match(stats.json.embedder, /glove/);
    const doctor = await get("/v1/doctor");
    assert.equal(doctor.json.ok, true);
    assert.ok(doctor.json.checks.length > 3);
  });

  test("a blank query is a 400 naming the field", async () => {
    const res = await fetch(`${server.url}/v1/search`, { method: "POST", headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" }, body: JSON.stringify({ query: "  " }) });
    assert.equal(res.status, 400);
    assert.equal(((await res.json()) as any).error.message, "query: must not be empty: say what to search for");
  });

  test("the page and its scripts are served without the token, gzipped, under a same-origin CSP", async () => {
    const page = await fetch(`${server.url}/`, { headers: { "accept-encoding": "gzip" } });
    assert.equal(page.status, 200);
    assert.match(page.headers.get("content-type")!, /^text\/html/);
    assert.match(page.headers.get("content-security-policy")!, /script-src 'self'/);
    const html = await page.text(); // fetch decodes gzip itself
    assert.match(html, /<script type="module" src="\/assets\/main.js">/);
    assert.doesNotMatch(html, /https?:\/\//, "the page names no other host");
    // node:http, because fetch would undo the gzip before we could see it
    const raw = await new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) =>
      httpGet(`${server.url}/assets/main.js`, { headers: { "accept-encoding": "gzip" } }, (res) => {
        const parts: Buffer[] = [];
        res.on("data", (b: Buffer) => parts.push(b)).on("end", () => resolve({ headers: res.headers, body: Buffer.concat(parts) }));
      }).on("error", reject),
    );
    assert.equal(raw.headers["content-encoding"], "gzip");
    assert.match(gunzipSync(raw.body).toString("utf8"), /import .* from "\.\/api\.js"/);
    const etag = raw.headers.etag as string;
    assert.equal((await fetch(`${server.url}/assets/main.js`, { headers: { "if-none-match": etag } })).status, 304);
    assert.equal((await fetch(`${server.url}/assets/inspector.css`)).status, 200);
    assert.equal((await fetch(`${server.url}/assets/nope.js`)).status, 404);
    assert.equal((await fetch(`${server.url}/assets/..%2Fpage.js`)).status, 404);
  });
});

describe("cascade list", () => {
  test("pages with --limit and --cursor, filters, human and JSON output, bad flags exit 2", async () => {
    const db = join(tempDir(), "list.db");
    // the demo corpus written in this process, as `cascade demo --db` writes it (demo has a CLI test of its own, in cli)
    const engine = await openMemory({ path: db, now: parseInstant("now", DEMO_NOW) });
    await engine.rememberMany(demoCorpus);
    await engine.close();
    const first = cli(["--db", db, "--now", DEMO_NOW, "list", "--limit", "2", "--json"]);
    assert.equal(first.status, 0, first.stderr);
    assert.deepEqual(first.json.memories.map((m: any) => m.at), ["2026-02-02T09:15:00Z", "2026-02-03T14:02:00Z"]);
    const second = await cliHere(["--db", db, "--now", DEMO_NOW, "list", "--limit", "2", "--cursor", first.json.next_cursor, "--json"]);
    assert.deepEqual(second.json.memories.map((m: any) => m.at), ["2026-02-03T14:05:00Z", "2026-02-05T10:30:00Z"]);
    const yaml = await cliHere(["--db", db, "--now", DEMO_NOW, "list", "--under", "ops.config", "--kind", "decision", "--as-of", "2026-04-01", "--json"]);
    assert.deepEqual(yaml.json.memories.map((m: any) => m.status), ["current", "current"]);
    const human = await cliHere(["--db", db, "--now", DEMO_NOW, "list", "--speaker", "Priya,Lena", "--order", "desc", "--limit", "3"]);
    assert.equal(human.status, 0, human.stderr);
    assert.match(human.stdout, /^2026-06-10T16:05:00Z {2}current {4}m_\w+ {2}turn · .*Priya\n {4}My dog ate my headphones/);
    assert.match(human.stdout, /\nmore: cascade list --cursor \S+\n$/);
    const bad = await cliHere(["--db", db, "list", "--limit", "0"]);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--limit must be a whole number ≥ 1, got "0"/);
    const cursor = await cliHere(["--db", db, "list", "--cursor", "x", "--json"]);
    assert.equal(cursor.status, 2);
    assert.equal(cursor.json.error.code, "INVALID_INPUT");
  });
});

test("expiry: add --ttl/--expires; searches and lists leave expired memories out unless asked; forget --expired removes them", async () => {
  const db = join(tempDir(), "expiry.db");
  // the CLI in this process (helpers cliHere: the same output and exit code); the file's other CLI test runs a process
  const run = (now: string, ...args: string[]) => cliHere(["--db", db, "--now", now, "--json", ...args]);
  const a = (await run("2026-03-01T00:00:00Z", "add", "The staging password rotates weekly", "--at", "2026-03-01T00:00:00Z", "--ttl", "2d")).json;
  const b = (await run("2026-03-01T00:00:00Z", "add", "The staging password is kept in the vault", "--at", "2026-03-01T00:00:00Z")).json;
  assert.equal((await run("2026-03-01T00:00:00Z", "show", a.id)).json.expires, "2026-03-03T00:00:00Z");
  const ids = async (now: string, ...extra: string[]) => (await run(now, "search", "staging password", ...extra)).json.hits.map((h: { id: string }) => h.id).sort();
  assert.deepEqual(await ids("2026-03-02T00:00:00Z"), [a.id, b.id].sort(), "before its expiry it is found");
  assert.deepEqual(await ids("2026-03-05T00:00:00Z"), [b.id], "after it, it is not");
  assert.deepEqual(await ids("2026-03-05T00:00:00Z", "--include-expired"), [a.id, b.id].sort());
  assert.deepEqual((await run("2026-03-05T00:00:00Z", "list")).json.memories.map((m: { id: string }) => m.id), [b.id]);
  const dry = (await run("2026-03-05T00:00:00Z", "forget", "--expired", "--dry-run")).json;
  assert.deepEqual(dry.ids, [a.id]);
  assert.equal((await run("2026-03-05T00:00:00Z", "forget", "--expired")).json.forgotten, 1);
  assert.equal((await run("2026-03-05T00:00:00Z", "show", a.id)).status, 2);
  const bad = await cliHere(["--db", db, "add", "x", "--ttl", "soon"]);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /ttl: "soon" is not a duration/);
});
