/**
 * Inputs a newcomer tried that were stored silently, refused badly or read unlike the docs, each now one answer on
 * every surface: the SDK throws a CascadeError, the CLI exits 2 with one line, HTTP answers 400 with the code and
 * field, MCP a tool error (or a JSON-RPC error for a message it cannot read) — and nothing is written.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { CascadeError, openMemory, parseFilterArg, type Engine } from "../src/index.js";
import type { RunningServer } from "../src/surfaces/http/serve.js";
import { cli, cliHere, tempDir } from "./helpers.js";
import { openEverySurface, type EverySurface } from "./every-surface.js";

const NOW = "2026-06-20T09:00:00Z";
const CLI = new URL("../src/surfaces/cli/main.js", import.meta.url).pathname;
const NOT_UTF8 = /not valid UTF-8 \(byte 3 is not part of any character\): send the text as UTF-8$/;

/** `cascade mcp` fed raw lines (bytes, as a client could send them): its JSON-RPC answers by id. */
function mcpAnswers(db: string, lines: Buffer[]): Map<unknown, any> {
  const init = { jsonrpc: "2.0", id: "init", method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } };
  const initialized = { jsonrpc: "2.0", method: "notifications/initialized" };
  const input = Buffer.concat([Buffer.from(JSON.stringify(init)), Buffer.from(JSON.stringify(initialized)), ...lines].flatMap((l) => [l, Buffer.from("\n")]));
  const r = spawnSync(process.execPath, [CLI, "mcp", "--db", db, "--now", NOW], { input, encoding: "utf8" });
  return new Map(r.stdout.trim().split("\n").map((l) => JSON.parse(l)).map((m) => [m.id, m]));
}

describe("the validation gaps: one answer on every surface", () => {
  const dir = tempDir();
  const db = join(dir, "gaps.db");
  let engine: Engine;
  let server: RunningServer;
  let mcp: Client;
  let surfaces: EverySurface | undefined;

  before(async () => {
    surfaces = await openEverySurface(db, NOW);
    ({ engine, server, mcp } = surfaces);
  });
  after(async () => {
    await surfaces?.close();
  });

  // a connection a request: seconds of CLI runs pass between calls, and a kept-alive socket the server closes
  // meanwhile can be reset under the next request
  const http = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(server.url + path, { method, headers: { "content-type": "application/json", connection: "close", ...headers }, body: body === undefined ? undefined : typeof body === "string" || body instanceof Uint8Array ? body : JSON.stringify(body) });
    return { status: res.status, json: (await res.json()) as any, headers: res.headers };
  };
  const count = async () => (await engine.list({ limit: 1000 })).memories.length;

  /**
   * The lines the tests below send to `cascade mcp` raw, answered by one process (their ids differ): a bad byte in
   * a tools/call, and tools/call without params or without a tool name. None of them writes.
   */
  const bad = Buffer.from([0x63, 0x61, 0x66, 0xe9]); // "caf" and a Latin-1 é
  let mcpRaw: Map<unknown, any> | undefined;
  const rawMcp = () =>
    (mcpRaw ??= mcpAnswers(db, [
      Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"memory_add","arguments":{"text":"'), bad, Buffer.from('"}}}')]),
      Buffer.from('{"jsonrpc":"2.0","id":2,"method":"tools/call"}'),
      Buffer.from('{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{}}'),
    ]));

  /** A memory the SDK, CLI (`add` with `cliArgs`, stdin `input`), HTTP and MCP all refuse with `message`, storing nothing. */
  async function refusedEverywhere(input: Record<string, unknown>, cliArgs: string[] | null, field: string, message: string, stdin?: string) {
    const before = await count();
    await assert.rejects(engine.remember(input as never), (e: unknown) => e instanceof CascadeError && e.code === "INVALID_INPUT" && e.message === message);
    if (cliArgs) {
      // the CLI in this process (helpers cliHere), but the one case that reads standard input: a process
      const r = await (stdin === undefined ? cliHere : cli)(["add", ...cliArgs, "--db", db, "--now", NOW], { input: stdin });
      assert.equal(r.status, 2, r.stderr);
      assert.equal(r.stderr, `cascade: ${message}\n`);
    }
    const h = await http("POST", "/v1/memories", input);
    assert.equal(h.status, 400);
    assert.deepEqual(h.json, { error: { code: "INVALID_INPUT", message, field } });
    const m = (await mcp.callTool({ name: "memory_add", arguments: input })) as any;
    assert.equal(m.isError, true);
    assert.equal(m.content[0].text, `error INVALID_INPUT: ${message}`);
    assert.equal(await count(), before, "nothing written");
  }

  const cases: [string, Record<string, unknown>, string[] | null, string, string, string?][] = [
    ["user \"\" (was dropped silently)", { text: "a", user: "" }, ["a", "--user", ""], "user", "user: cannot be empty (leave it out for none)"],
    ["user \"   \" (was a scope)", { text: "a", user: "   " }, ["a", "--user", "   "], "user", "user: cannot be only spaces"],
    ["a control character in a user", { text: "a", user: "al\u0007ice" }, ["a", "--user", "al\u0007ice"], "user", "user: holds a control character (U+0007) at character 2"],
    // a NUL cannot travel in a command-line argument: the CLI cannot be asked
    ["NUL in a user (was a scope)", { text: "a", user: "al\u0000ice" }, null, "user", "user: holds a control character (U+0000) at character 2"],
    ["agent \"\"", { text: "a", agent: "" }, ["a", "--agent", ""], "agent", "agent: cannot be empty (leave it out for none)"],
    ["--session ''", { text: "a", session: "" }, ["a", "--session", ""], "session", "session: cannot be empty (leave it out for none)"],
    ["--speaker ''", { text: "a", speaker: "" }, ["a", "--speaker", ""], "speaker", "speaker: cannot be empty (leave it out for none)"],
    ["ttl 0d (expired at once)", { text: "a", ttl: "0d" }, ["a", "--ttl", "0d"], "ttl", 'ttl: "0d" would expire the memory at once; give a duration above zero'],
    ["text made only of NULs (was stored)", { text: "\u0000\u0000" }, ["-"], "text", "text: holds only control characters (such as NUL) and spaces: nothing to remember", "\u0000\u0000"],
  ];
  for (const [name, input, cliArgs, field, message, stdin] of cases) {
    test(`refused on every surface: ${name}`, () => refusedEverywhere(input, cliArgs, field, message, stdin));
  }

  test("bytes that are not UTF-8: refused by import, HTTP, MCP and add - alike (HTTP and MCP stored U+FFFD)", async () => {
    const before = await count();
    const body = Buffer.concat([Buffer.from('{"text":"'), bad, Buffer.from('"}')]);
    const h = await http("POST", "/v1/memories", new Uint8Array(body));
    assert.equal(h.status, 400);
    assert.equal(h.json.error.code, "INVALID_INPUT");
    assert.equal(h.json.error.field, "body");
    assert.match(h.json.error.message, /^body: not valid UTF-8 \(byte 12 is not part of any character\)/);

    const answer = rawMcp().get(7);
    assert.equal(answer.error.code, -32700);
    assert.match(answer.error.message, /^Parse error: message: not valid UTF-8 \(byte \d+ is not part of any character\)/);

    const r = spawnSync(process.execPath, [CLI, "add", "-", "--db", db], { input: bad, encoding: "utf8" });
    assert.equal(r.status, 2);
    assert.match(r.stderr.trim(), /^cascade: text: /);
    assert.match(r.stderr.trim(), NOT_UTF8);
    assert.equal(r.stderr.trim().split("\n").length, 1);
    const file = join(dir, "latin1.txt");
    writeFileSync(file, bad);
    const f = await cliHere(["add", "--file", file, "--db", db]);
    assert.equal(f.status, 2);
    assert.match(f.stderr, /^cascade: --file: not valid UTF-8 \(byte 3/);
    const jsonl = join(dir, "latin1.jsonl");
    writeFileSync(jsonl, Buffer.concat([Buffer.from('{"text":"'), bad, Buffer.from('"}\n')]));
    const i = await cliHere(["import", jsonl, "--db", db]);
    assert.match(i.stdout, /line 1: not valid UTF-8/);
    assert.equal(await count(), before, "nothing written");
  });

  test("MCP tools/call without params, or without a tool name: -32602 and one line (was -32603 with a zod dump)", () => {
    const answers = rawMcp();
    assert.deepEqual(answers.get(2).error, { code: -32602, message: "Invalid params: tools/call: params: Invalid input: expected object, received undefined" });
    assert.deepEqual(answers.get(3).error, { code: -32602, message: "Invalid params: tools/call: params.name: Invalid input: expected string, received undefined" });
  });

  test("PUT /v1/search: 405 with Allow (was 404); a path no method takes is still 404", async () => {
    const r = await http("PUT", "/v1/search", { query: "x" });
    assert.equal(r.status, 405);
    assert.equal(r.headers.get("allow"), "POST");
    assert.deepEqual(r.json, { error: { code: "METHOD_NOT_ALLOWED", message: "/v1/search does not take PUT; it takes POST" } });
    const one = await http("POST", "/v1/memories/m_x");
    assert.equal(one.status, 405);
    assert.equal(one.headers.get("allow"), "DELETE, GET, HEAD, PATCH");
    assert.equal((await http("PUT", "/v1/nothing")).status, 404);
  });

  test("a namespace header that is not ASCII is named as it was sent (was echoed garbled)", async () => {
    // a header travels as bytes; fetch sends each character as one byte, so the UTF-8 bytes go as such characters
    const r = await http("GET", "/v1/memories", undefined, { "x-cascade-namespace": Buffer.from("café").toString("latin1") });
    assert.equal(r.status, 400);
    assert.deepEqual(r.json, { error: { code: "INVALID_INPUT", message: 'namespace: "café" must be 1–64 letters, digits, _ or -', field: "namespace" } });
  });

  test("a scope value holding | is found from the CLI and GET ?filter= with \\| (there was no way)", async () => {
    const { id } = await engine.remember({ text: "Quarterly numbers for the a|b team.", user: "a|b", at: "2026-06-02" });
    const listed = await cliHere(["list", "--filter", "user=a\\|b", "--db", db, "--json"]);
    assert.equal(listed.status, 0, listed.stderr);
    assert.deepEqual(listed.json.memories.map((m: any) => m.id), [id]);
    const g = await http("GET", `/v1/memories?filter=${encodeURIComponent("user=a\\|b")}`);
    assert.deepEqual(g.json.memories.map((m: any) => m.id), [id]);
    // unescaped, | still makes a list: user "a" or user "b", of which there are none
    assert.deepEqual((await http("GET", `/v1/memories?filter=${encodeURIComponent("user=a|b")}`)).json.memories, []);
    assert.deepEqual(parseFilterArg("user=a\\|b"), { field: { scope: "user" }, op: "eq", value: "a|b" });
    assert.deepEqual(parseFilterArg("user=a\\\\|b"), { field: { scope: "user" }, op: "in", value: ["a\\", "b"] });
    assert.deepEqual(parseFilterArg("path=C:\\dir"), { field: { metadata: ["path"] }, op: "eq", value: "C:\\dir" }, "another backslash is itself");
  });

  test("a memory added with --tags travel is found by --filter tags=travel on every surface (the filter read metadata.tags)", async () => {
    const added = await cliHere(["add", "Flight to Oslo on Monday at nine.", "--tags", "travel,work", "--db", db, "--now", NOW, "--json"]);
    assert.equal(added.status, 0, added.stderr);
    const id = added.json.id;
    const s = await cliHere(["search", "flight", "--filter", "tags=travel", "--db", db, "--now", NOW, "--json"]);
    assert.deepEqual(s.json.hits.map((h: any) => h.id), [id]);
    assert.deepEqual((await cliHere(["list", "--filter", "tags=travel", "--db", db, "--json"])).json.memories.map((m: any) => m.id), [id]);
    assert.deepEqual((await engine.recall("flight", { filter: { tags: "travel" } })).hits.map((h) => h.id), [id]);
    assert.deepEqual((await http("POST", "/v1/search", { query: "flight", filter: { tags: { in: ["travel"] } } })).json.hits.map((h: any) => h.id), [id]);
    assert.deepEqual((await http("POST", "/v1/search", { query: "flight", filter: { tags: "holiday" } })).json.hits, []);
    const m = (await mcp.callTool({ name: "memory_search", arguments: { query: "flight", filter: { tags: "travel" } } })) as any;
    assert.match(m.content[0].text, new RegExp(`^1\\. \\[${id}\\]`));
    // a metadata field named tags is still reached, by its full path
    const meta = await engine.remember({ text: "Packing list for the trip.", metadata: { tags: "luggage" } });
    assert.deepEqual((await engine.list({ filter: { "metadata.tags": "luggage" } })).memories.map((x) => x.id), [meta.id]);
    assert.deepEqual((await engine.list({ filter: { tags: "luggage" } })).memories, []);
  });

  test("cascade list --speaker '' is refused (was: every memory listed)", async () => {
    const r = await cliHere(["list", "--speaker", "", "--db", db]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /^cascade: option '--speaker <name>' argument '' is invalid\. a name cannot be empty, got ""\n$/);
  });
});

test("cascade add - and add --file read the text (a shell argument stops near 128 KB)", async () => {
  const dir = tempDir();
  const db = join(dir, "m.db");
  const long = "The long report, line after line. ".repeat(6000); // 210,000 characters
  const r = cli(["add", "-", "--db", db, "--json"], { input: `${long}\n` });
  assert.equal(r.status, 0, r.stderr);
  const file = join(dir, "note.txt");
  writeFileSync(file, "Dentist moved to Tuesday.\r\n");
  // standard input through a process; the file and the refusals below in this process (helpers cliHere)
  const f = await cliHere(["add", "--file", file, "--db", db, "--json"]);
  assert.equal(f.status, 0, f.stderr);
  // what the two adds stored, read in this process (`show --json` prints engine.show's memory as it is)
  const engine = await openMemory({ path: db, create: false });
  try {
    assert.equal((await engine.show(r.json.id)).text, long, "the text, its final line break dropped");
    assert.equal((await engine.show(f.json.id)).text, "Dentist moved to Tuesday.");
  } finally {
    await engine.close();
  }
  for (const [args, message] of [
    [["add", "x", "--file", file], "--file: give the text as an argument, - (standard input) or --file, not two of them"],
    [["add", "--file", join(dir, "none.txt")], `--file: cannot read ${join(dir, "none.txt")}: no such file`],
    [["add"], "text: missing: give it as an argument, - to read standard input, or --file PATH"],
  ] as const) {
    const bad = await cliHere([...args, "--db", db]);
    assert.equal(bad.status, 2);
    assert.equal(bad.stderr, `cascade: ${message}\n`);
  }
});

test("CASCADE_DB beats the config file's db, and --db beats both (flag > environment > file)", () => {
  const dir = tempDir();
  mkdirSync(join(dir, "work"));
  writeFileSync(join(dir, "work", "cascade.config.json"), JSON.stringify({ db: join(dir, "from-file.db") }));
  const env = { CASCADE_DB: join(dir, "from-env.db") };
  assert.equal(cli(["add", "x"], { cwd: join(dir, "work"), env }).status, 0);
  assert.ok(existsSync(join(dir, "from-env.db")));
  assert.ok(!existsSync(join(dir, "from-file.db")), "the file's db lost to the environment");
  assert.equal(cli(["add", "y", "--db", join(dir, "from-flag.db")], { cwd: join(dir, "work"), env }).status, 0);
  assert.ok(existsSync(join(dir, "from-flag.db")));
  assert.equal(cli(["add", "z"], { cwd: join(dir, "work"), env: { CASCADE_DB: "" } }).status, 0);
  assert.ok(existsSync(join(dir, "from-file.db")), "without the environment, the file's db");
});
