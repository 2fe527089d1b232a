/**
 * A name does not cross scopes through an alias, on every surface. Alice's memories are spoken by Rosalind (a
 * person); Bob's say "Ros". Before, "ros" became an alias of Alice's Rosalind, so `entities --filter user=bob
 * --query ros` listed Rosalind on the CLI, HTTP and MCP, `graph` on Bob's memory showed the entity Rosalind, and
 * `search Rosalind --filter user=bob` returned Bob's memory (through the entity). The store's own rule is checked
 * on both backends by the contract (test/contract/entity-scope-case.ts); this is the same fault end to end.
 */
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { join } from "node:path";
import { cli, cliHere, tempDir } from "./helpers.js";
import { openEverySurface, type EverySurface } from "./every-surface.js";

const NOW = "2026-06-10T12:00:00Z";
const db = join(tempDir(), "memory.db");
let surfaces: EverySurface;
let bobsMemory: string;

test("set up: Alice's memories spoken by Rosalind, Bob's naming Ros", async () => {
  surfaces = await openEverySurface(db, NOW);
  const { engine } = surfaces;
  await engine.remember({ text: "I booked the venue for the spring fair.", speaker: "Rosalind", user: "alice", at: "2026-06-02T10:00:00Z" });
  await engine.remember({ text: "I asked Alice for the budget sheet.", speaker: "Rosalind", user: "alice", at: "2026-06-03T10:00:00Z" });
  bobsMemory = (await engine.remember({ text: "Ros from the rowing club lent me a paddle.", user: "bob", at: "2026-06-04T10:00:00Z" })).id;
});
after(() => surfaces?.close());

const names = (list: { name: string }[]) => list.map((e) => e.name).sort();

test("entities --filter user=bob --query ros lists Bob's Ros, not Alice's Rosalind, on the CLI, HTTP and MCP", async () => {
  const viaCli = cli(["entities", "--filter", "user=bob", "--query", "ros", "--db", db, "--now", NOW, "--json"]);
  assert.equal(viaCli.status, 0, viaCli.stderr);
  assert.deepEqual(names(viaCli.json.entities), ["Ros"]);
  const viaHttp = (await (await fetch(`${surfaces.server.url}/v1/entities?filter=user=bob&query=ros`)).json()) as { entities: { name: string }[] };
  assert.deepEqual(names(viaHttp.entities), ["Ros"]);
  const viaMcp = await surfaces.mcp.callTool({ name: "memory_entities", arguments: { query: "ros", filter: { user: "bob" } } });
  const text = (viaMcp.content as { text: string }[]).map((c) => c.text).join("\n");
  assert.match(text, /\] Ros \(/);
  assert.doesNotMatch(text, /Rosalind/);
  // Alice's Rosalind is still hers
  assert.deepEqual(names((await surfaces.engine.entities({ query: "ros", filter: { user: "alice" } })).entities), ["Rosalind"]);
});

test("graph on Bob's memory shows Ros, not Rosalind", async () => {
  const graph = await cliHere(["graph", bobsMemory, "--db", db, "--now", NOW, "--json"]);
  assert.equal(graph.status, 0, graph.stderr);
  const entities = graph.json.nodes.filter((n: { type: string }) => n.type === "entity").map((n: { name: string }) => n.name);
  assert.deepEqual(entities, ["Ros"]);
});

test("search Rosalind --filter user=bob does not reach Bob's memory through Alice's name", async () => {
  const search = await cliHere(["search", "Rosalind", "--filter", "user=bob", "--db", db, "--now", NOW, "--json"]);
  assert.equal(search.status, 0, search.stderr);
  assert.deepEqual(search.json.hits.map((h: { id: string }) => h.id), []);
});
