/**
 * Scope is a boundary no inference crosses: the user's report, exactly as typed on the CLI, and the
 * entity listing of one scope on the CLI, over HTTP and through MCP.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { MemorySpace, openMemory, parseInstant } from "../src/index.js";
import { startHttpServer, type RunningServer } from "../src/surfaces/http/serve.js";
import { cli, cliHere, tempDir } from "./helpers.js";

const NOW = "2026-06-20T09:00:00Z";

test("Bob's revision of a preference leaves Alice's standing (as a user reported it on the CLI)", async () => {
  const db = join(tempDir(), "seats.db");
  const run = (...args: string[]) => cliHere([...args, "--db", db, "--now", NOW]);
  const alice = (await run("add", "Prefers window seats on flights", "--user", "alice", "--at", "2026-06-01", "--json")).json.id as string;
  const bob = await run("add", "Actually no longer prefers window seats on flights; prefers aisle seats instead", "--user", "bob", "--at", "2026-06-02");
  assert.equal(bob.status, 0, bob.stderr);
  assert.doesNotMatch(bob.stdout, /supersedes/, "nothing of Alice's is superseded by Bob");
  const found = await run("search", "seat on flights", "--filter", "user=alice", "--current-only", "--json");
  assert.equal(found.status, 0, found.stderr);
  assert.deepEqual(found.json.hits.map((h: any) => [h.id, h.status]), [[alice, "current"]]);
  assert.deepEqual((await run("history", alice, "--json")).json.chain.map((c: any) => c.status), ["current"]);
  // the same sentence said by Alice herself is her revision
  const own = await run("add", "Actually no longer prefers window seats on flights; prefers aisle seats instead", "--user", "alice", "--at", "2026-06-03");
  assert.match(own.stdout, new RegExp(`supersedes ${alice} \\(detected`));
});

describe("entities of one scope", () => {
  const notes = [
    { text: "Alice booked the Lisbon flight with Iberia.", user: "alice", at: "2026-01-01" },
    { text: "Alice says Iberia moved the Lisbon flight to Friday.", user: "alice", at: "2026-01-02" },
    { text: "Bob rented a car from Hertz in Oslo.", user: "bob", at: "2026-01-03" },
    { text: "Bob booked a Madrid flight with Iberia.", user: "bob", at: "2026-01-04" },
  ];
  const counts = (list: { name: string; memories: number }[]) => Object.fromEntries(list.map((e) => [e.name, e.memories]));

  test("CLI: entities --filter user=alice lists what her memories mention, counted over them", async () => {
    const db = join(tempDir(), "entities-cli.db");
    // written in this process (what is tested is entities --filter; add --user is tested above, on the CLI)
    const engine = await openMemory({ path: db });
    try {
      for (const n of notes) await engine.remember(n);
    } finally {
      await engine.close();
    }
    const all = cli(["entities", "--db", db, "--json"]);
    assert.equal(counts(all.json.entities).Iberia, 3);
    const alice = await cliHere(["entities", "--filter", "user=alice", "--db", db, "--json"]);
    assert.equal(alice.status, 0, alice.stderr);
    const mine = counts(alice.json.entities);
    assert.equal(mine.Iberia, 2);
    assert.equal(mine.Lisbon, 2);
    for (const other of ["Madrid", "Hertz", "Oslo"]) assert.ok(!(other in mine), `${other} is not among Alice's entities`);
    const bad = await cliHere(["entities", "--filter", "user", "--db", db, "--json"]);
    assert.equal(bad.status, 2);
    assert.equal(bad.json.error.code, "INVALID_INPUT");
  });

  describe("HTTP: GET /v1/entities?filter=", () => {
    let server: RunningServer;
    before(async () => {
      server = await startHttpServer(new MemorySpace(join(tempDir(), "entities-http.db"), { now: parseInstant("now", NOW) }), { host: "127.0.0.1", port: 0, maxBodyBytes: 64 * 1024, maxBatch: 100 });
    });
    after(() => server.close());

    test("a filter in the CLI's spelling narrows the list and its counts", async () => {
      const added = await fetch(`${server.url}/v1/memories:batch`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ memories: notes }) });
      assert.equal(added.status, 200);
      const get = async (q: string) => {
        const res = await fetch(`${server.url}/v1/entities${q}`);
        return { status: res.status, json: (await res.json()) as any };
      };
      assert.equal(counts((await get("?top=50")).json.entities).Iberia, 3);
      const bob = await get(`?top=50&filter=${encodeURIComponent("user=bob")}`);
      assert.equal(bob.status, 200);
      assert.deepEqual(counts(bob.json.entities).Iberia, 1);
      assert.ok(!("Lisbon" in counts(bob.json.entities)));
      assert.equal((await get(`?filter=${encodeURIComponent("user")}`)).status, 400);
    });
  });

  test("graph ID reaches, through an entity, only memories of the memory's own scope", async () => {
    const memory = await openMemory({ path: join(tempDir(), "entities-graph.db"), now: parseInstant("now", NOW) });
    const ids = (await memory.rememberMany(notes)).ids as string[];
    const g = await memory.graph(ids[0], { depth: 2 });
    const reached = g.nodes.filter((n) => n.type === "memory").map((n) => n.id);
    assert.deepEqual(reached.sort(), [ids[0], ids[1]].sort(), "Alice's two notes, not Bob's Iberia booking");
    assert.equal(g.nodes.find((n) => n.type === "entity" && n.name === "Iberia")?.memories, 2, "Iberia counted in Alice's scope");
    await memory.close();
  });

  test("MCP: memory_entities with a filter", async () => {
    const db = join(tempDir(), "entities-mcp.db");
    const client = new Client({ name: "cascade-test", version: "1.0.0" });
    const CLI = new URL("../src/surfaces/cli/main.js", import.meta.url).pathname;
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp", "--db", db, "--now", NOW], stderr: "pipe" }));
    const text = (r: any): string => r.content.map((c: any) => c.text).join("\n");
    for (const n of notes) await client.callTool({ name: "memory_add", arguments: n });
    const bob = text(await client.callTool({ name: "memory_entities", arguments: { filter: { user: "bob" } } }));
    assert.match(bob, /Iberia \(\w+; mentioned by 1\)/);
    assert.doesNotMatch(bob, /Lisbon/);
    await client.close();
  });
});
