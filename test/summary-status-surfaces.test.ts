/**
 * Superseded summary sources and scopes, on every surface that shows summaries: the CLI (human and --json), HTTP and MCP text
 * mark the Berlin sentence of week 2026-W23 superseded by Prague, and a search filtered to bob quotes none of
 * Alice's sentences. (The inspector's page: test/inspector.test.ts.)
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { MemorySpace, openMemory, parseInstant } from "../src/index.js";
import { startHttpServer, type RunningServer } from "../src/surfaces/http/serve.js";
import { BERLIN, OFFSITE_NOW, PRAGUE, offsiteNotes } from "./fixtures/offsite.js";
import { cli, cliHere, tempDir } from "./helpers.js";

const CLI = new URL("../src/surfaces/cli/main.js", import.meta.url).pathname;
let db: string;
let prague: string;
let mark: string;

before(async () => {
  db = join(tempDir(), "offsite.db");
  const engine = await openMemory({ path: db, now: parseInstant("now", OFFSITE_NOW) });
  const { ids } = await engine.rememberMany(offsiteNotes(), { detect: false });
  prague = ids[offsiteNotes().findIndex((m) => m.text === PRAGUE)] as string;
  mark = `[superseded by ${prague}]`;
  await engine.close();
});

test("CLI: search and pyramid show mark the superseded sentence; --filter user=bob quotes none of Alice's", async () => {
  const human = cli(["search", "what was planned last week", "--db", db, "--now", OFFSITE_NOW]);
  assert.equal(human.status, 0, human.stderr);
  assert.ok(human.stdout.includes(`Alice: ${BERLIN}  ${mark}`), human.stdout);
  const json = (await cliHere(["search", "what was planned last week", "--db", db, "--now", OFFSITE_NOW, "--json"])).json;
  const week = json.context.find((c: any) => c.id === "p_week_2026-W23");
  assert.deepEqual(
    week.sentences.filter((s: any) => s.status === "superseded").map((s: any) => [s.text, s.superseded_by]),
    [[BERLIN, [prague]]],
  );
  const bob = (await cliHere(["search", "what happened last week", "--db", db, "--now", OFFSITE_NOW, "--filter", "user=bob", "--json"])).json;
  assert.ok(bob.context.length > 0);
  assert.doesNotMatch(JSON.stringify(bob.context), /passport|X4417728|Alice/);
  const pyramid = await cliHere(["pyramid", "show", "--level", "week", "--db", db, "--now", OFFSITE_NOW]);
  assert.ok(pyramid.stdout.includes(`    Alice: ${BERLIN}  ${mark}`), pyramid.stdout);
  const shown = await cliHere(["show", "p_week_2026-W23", "--db", db, "--now", OFFSITE_NOW]);
  assert.ok(shown.stdout.includes(`\nAlice: ${BERLIN} ${mark}\n`), shown.stdout);
});

test("HTTP: the search's context and GET /v1/pyramid carry each sentence's status; a filtered search's context stays in scope", async () => {
  const server: RunningServer = await startHttpServer(new MemorySpace(db, { now: parseInstant("now", OFFSITE_NOW) }), { host: "127.0.0.1", port: 0 });
  after(() => server.close());
  const post = async (body: object): Promise<any> => (await fetch(`${server.url}/v1/search`, { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } })).json();
  const all = await post({ query: "what was planned last week" });
  const week = all.context.find((c: any) => c.id === "p_week_2026-W23");
  assert.ok(week.text.includes(`Alice: ${BERLIN} ${mark}`), week.text);
  assert.equal(week.sentences.find((s: any) => s.text === BERLIN).status, "superseded");
  const bob = await post({ query: "what happened last week", filter: { user: "bob" } });
  assert.doesNotMatch(JSON.stringify(bob.context), /passport|X4417728|Alice/);
  const alice = await post({ query: "what happened last week", filter: { user: "alice" } });
  assert.doesNotMatch(JSON.stringify(alice.context), /conference room|revenue|Bob/);
  const pyramid: any = await (await fetch(`${server.url}/v1/pyramid?level=week`)).json();
  const node = pyramid.nodes.find((n: any) => n.id === "p_week_2026-W23");
  assert.ok(node.text.includes(`Alice: ${BERLIN} ${mark}`), node.text);
  assert.deepEqual(node.sentences.find((s: any) => s.text === BERLIN).superseded_by, [prague]);
});

test("MCP: memory_search's context and memory_pyramid mark it, and the heading no longer claims summaries reflect later changes", async () => {
  const client = new Client({ name: "cascade-test", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp", "--db", db, "--now", OFFSITE_NOW], stderr: "pipe" }));
  after(() => client.close());
  const textOf = (r: any): string => r.content.map((c: any) => c.text).join("\n");
  const found = textOf(await client.callTool({ name: "memory_search", arguments: { query: "what was planned last week" } }));
  assert.ok(found.includes(`Alice: ${BERLIN} ${mark}`), found);
  assert.doesNotMatch(found, /already reflect later changes/);
  assert.match(found, /a sentence marked \[superseded by …\] was replaced later/);
  const bob = textOf(await client.callTool({ name: "memory_search", arguments: { query: "what happened last week", filter: { user: "bob" } } }));
  assert.doesNotMatch(bob, /passport|X4417728/);
  const pyramid = textOf(await client.callTool({ name: "memory_pyramid", arguments: { level: "week" } }));
  assert.ok(pyramid.includes(`Alice: ${BERLIN} ${mark}`), pyramid);
  const got = textOf(await client.callTool({ name: "memory_get", arguments: { id: "p_week_2026-W23" } }));
  assert.ok(got.includes(`Alice: ${BERLIN} ${mark}`), got);
});
