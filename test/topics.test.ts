import assert from "node:assert/strict";
import { join } from "node:path";
import Database from "better-sqlite3";
import { test } from "node:test";
import { CascadeError, isAncestor, isDescendant, openMemory, parseInstant } from "../src/index.js";
import { FITS_NOTHING, TO_PLACE, TOPICS } from "./fixtures/topic-placement.js";
import { cli, cliHere, emptyEngine, tempDir } from "./helpers.js";

const usage = (e: unknown) => e instanceof CascadeError && e.isUsageError;

test("<@ and @> with ltree's meaning (PostgreSQL's documented example: path <@ 'Top.Science')", () => {
  const tree = ["Top", "Top.Science", "Top.Science.Astronomy", "Top.Science.Astronomy.Astrophysics", "Top.Science.Astronomy.Cosmology", "Top.Hobbies", "Top.Hobbies.Amateurs_Astronomy"];
  assert.deepEqual(tree.filter((p) => isDescendant(p, "Top.Science")), ["Top.Science", "Top.Science.Astronomy", "Top.Science.Astronomy.Astrophysics", "Top.Science.Astronomy.Cosmology"]);
  assert.deepEqual(tree.filter((p) => isAncestor(p, "Top.Science.Astronomy")), ["Top", "Top.Science", "Top.Science.Astronomy"]);
  assert.equal(isDescendant("retrievals.x", "retrieval"), false);
});

test("prefix queries take the node and all its descendants, and nothing else", async () => {
  const { engine } = await emptyEngine();
  for (const topic of ["retrieval", "retrieval.fusion", "retrieval.fusion.rrf", "retrievals.x", "retrieval-old", "retrieva", "other.retrieval"]) {
    await engine.remember({ text: `Notes about ranked retrieval fusion filed under ${topic}.`, topic });
  }
  const r = await engine.recall("ranked retrieval fusion notes", { under: "retrieval", k: 50 });
  assert.deepEqual(r.hits.map((h) => h.topic).sort(), ["retrieval", "retrieval.fusion", "retrieval.fusion.rrf"]);
  const t = await engine.topics("retrieval");
  assert.deepEqual(t.topics.map((x) => [x.path, x.count, x.total]), [["retrieval", 1, 3], ["retrieval.fusion", 1, 2], ["retrieval.fusion.rrf", 1, 1]]);
  await engine.close();
});

test("a subtree is an index range: the query plan searches the topic index, never scans memories", () => {
  const db = new Database(":memory:");
  db.exec("CREATE TABLE memories (rowid INTEGER PRIMARY KEY, topic TEXT); CREATE INDEX memories_topic ON memories (topic);");
  const plan = db
    .prepare("EXPLAIN QUERY PLAN SELECT rowid FROM memories m WHERE (m.topic = @under OR (m.topic >= @lo AND m.topic < @hi))")
    .all({ under: "a", lo: "a.", hi: "a/" })
    .map((r: any) => r.detail)
    .join("\n");
  assert.match(plan, /SEARCH m USING COVERING INDEX memories_topic \(topic=\?\)/);
  assert.match(plan, /SEARCH m USING COVERING INDEX memories_topic \(topic>\? AND topic<\?\)/);
  assert.doesNotMatch(plan, /SCAN m\b/);
  db.close();
});

test("create, describe, move, merge and delete topics", async () => {
  const { engine } = await emptyEngine();
  await engine.createTopic("retrieval.fusion", { description: "How channels are combined" });
  const a = await engine.remember({ text: "RRF uses k = 60.", topic: "retrieval.fusion.rrf" });
  await engine.remember({ text: "Dense search is exact.", topic: "retrieval.dense" });
  let t = await engine.topics();
  assert.deepEqual(t.topics.map((x) => [x.path, x.count, x.total, x.description]), [
    ["retrieval", 0, 2, null],
    ["retrieval.dense", 1, 1, null],
    ["retrieval.fusion", 0, 1, "How channels are combined"],
    ["retrieval.fusion.rrf", 1, 1, null],
  ]);
  assert.deepEqual(await engine.moveTopic("retrieval.fusion", "search.ranking.fusion"), { from: "retrieval.fusion", to: "search.ranking.fusion", memories: 1 });
  assert.equal((await engine.show(a.id)).topic, "search.ranking.fusion.rrf");
  t = await engine.topics("search");
  assert.equal(t.topics.find((x) => x.path === "search.ranking.fusion")!.description, "How channels are combined");
  await assert.rejects(engine.moveTopic("retrieval", "search"), (e: unknown) => usage(e) && /already holds/.test((e as Error).message));
  await assert.rejects(engine.moveTopic("search", "search.deeper"), (e: unknown) => usage(e) && /own subtree/.test((e as Error).message));
  await assert.rejects(engine.moveTopic("nowhere", "x"), (e: unknown) => e instanceof CascadeError && e.code === "NOT_FOUND");
  assert.equal((await engine.mergeTopic("retrieval", "search")).memories, 1);
  assert.deepEqual((await engine.topics()).topics.map((x) => x.path), ["search", "search.dense", "search.ranking", "search.ranking.fusion", "search.ranking.fusion.rrf"]);
  await assert.rejects(engine.deleteTopic("search.ranking"), (e: unknown) => usage(e) && /still holds 1 memories/.test((e as Error).message));
  await engine.createTopic("archive.empty", { description: "nothing yet" });
  assert.deepEqual(await engine.deleteTopic("archive"), { path: "archive", deleted: true });
  assert.ok(!(await engine.topics()).topics.some((x) => x.path.startsWith("archive")));
  await engine.close();
});

test("moving a subtree of 1,000 memories is atomic: a failure midway leaves every path unchanged", async () => {
  const dir = tempDir();
  const path = join(dir, "move.db");
  const engine = await openMemory({ path, now: parseInstant("now", "2026-06-20") });
  const inputs = Array.from({ length: 1000 }, (_, i) => ({ text: `Ticket ${i} about the billing export.`, topic: `ops.billing.t${i % 10}` }));
  await engine.rememberMany(inputs, { detect: false });
  // inject a failure on the 500th re-pathed memory, from outside the engine
  const raw = new Database(path);
  const victim = (raw.prepare("SELECT rowid FROM memories ORDER BY rowid LIMIT 1 OFFSET 499").get() as { rowid: number }).rowid;
  raw.exec(`CREATE TRIGGER fail_midway BEFORE UPDATE OF topic ON memories WHEN NEW.rowid = ${victim} BEGIN SELECT RAISE(ABORT, 'injected failure'); END;`);
  const before = raw.prepare("SELECT rowid, topic FROM memories ORDER BY rowid").all();
  await assert.rejects(engine.moveTopic("ops.billing", "finance.billing"), /injected failure/);
  assert.deepEqual(raw.prepare("SELECT rowid, topic FROM memories ORDER BY rowid").all(), before);
  raw.exec("DROP TRIGGER fail_midway");
  raw.close();
  assert.equal((await engine.moveTopic("ops.billing", "finance.billing")).memories, 1000);
  assert.equal((await engine.topics("finance.billing")).topics[0].total, 1000);
  await engine.close();
});

/** An engine holding the labelled fixture's described topics and their seed memories. */
async function fixtureEngine(config: Parameters<typeof openMemory>[0] = {}) {
  const engine = await openMemory({ path: join(tempDir(), "memory.db"), now: parseInstant("now", "2026-06-20"), ...config });
  for (const t of TOPICS) {
    await engine.createTopic(t.path, { description: t.description });
    for (const s of t.seeds) await engine.remember({ text: s, topic: t.path });
  }
  return engine;
}

test("automatic placement on a labelled fixture: accuracy reported, no topic when nothing fits", async () => {
  const engine = await fixtureEngine();
  let correct = 0;
  let notPlaced = 0;
  const wrong: string[] = [];
  for (const m of TO_PLACE) {
    const r = await engine.remember({ text: m.text });
    if (r.topic === m.topic) correct++;
    else if (r.topic === null) notPlaced++;
    else wrong.push(`${m.text} → ${r.topic}`);
  }
  let rightlyNotPlaced = 0;
  for (const text of FITS_NOTHING) if ((await engine.remember({ text })).topic === null) rightlyNotPlaced++;
  const accuracy = correct / TO_PLACE.length;
  console.log(
    `# placement on ${TO_PLACE.length} labelled memories over ${TOPICS.length} topics: accuracy ${accuracy.toFixed(3)} (${correct} right, ` +
      `${notPlaced} not placed, ${wrong.length} wrong); ${rightlyNotPlaced}/${FITS_NOTHING.length} that fit nothing were not placed` +
      (wrong.length ? `\n#   wrong: ${wrong.join("; ")}` : ""),
  );
  assert.ok(accuracy >= 0.7, `accuracy ${accuracy}`);
  assert.ok(wrong.length <= 3, `wrong guesses: ${wrong.join("; ")}`);
  assert.ok(rightlyNotPlaced >= 4, `not placed: ${rightlyNotPlaced}`);
  // the choice is stored and shown; explicit topics are never overridden
  const placed = await engine.remember({ text: "Baked a loaf of rye bread with caraway seeds." });
  const shown = await engine.show(placed.id);
  assert.equal(shown.topic, "home.cooking");
  assert.equal((shown.metadata.placement as any).topic, "home.cooking");
  assert.equal((shown.metadata.placement as any).abstained, false);
  assert.ok((shown.metadata.placement as any).confidence > 0);
  const explicit = await engine.remember({ text: "Baked a loaf of rye bread with caraway seeds.", topic: "travel.trips" });
  // a store with a single topic has nothing to compare against: a generic memory is not pushed into it
  const single = (await emptyEngine()).engine;
  await single.remember({ text: "Old note about the failover runbook for the database.", topic: "ops.runbooks" });
  const generic = await single.remember({ text: "Third turn" });
  assert.equal(generic.topic, null);
  assert.equal(((await single.show(generic.id)).metadata.placement as any).nearest, "ops.runbooks");
  await single.close();
  assert.equal(explicit.topic, "travel.trips");
  assert.equal((await engine.show(explicit.id)).metadata.placement, undefined);
  await engine.close();
});

test("a memory that fits no topic keeps no topic; its placement records that it abstained and the nearest topic", async () => {
  const engine = await fixtureEngine();
  const cat = await engine.remember({ text: "The cat knocked over the lamp again." });
  assert.equal(cat.topic, null);
  const shown = await engine.show(cat.id);
  assert.equal(shown.topic, null);
  const p = shown.metadata.placement as any;
  assert.equal(p.abstained, true);
  assert.equal(p.topic, null);
  assert.equal(p.confidence, 0);
  assert.ok(TOPICS.some((t) => t.path === p.nearest), `nearest: ${p.nearest}`);
  assert.equal(typeof p.similarity, "number");
  assert.ok(p.similarity > -1 && p.similarity < 1, `similarity: ${p.similarity}`);
  assert.ok(p.runner_up === null || (TOPICS.some((t) => t.path === p.runner_up) && p.runner_up !== p.nearest));
  // no pseudo-topic: the taxonomy, `under` and `match` know nothing of `unsorted`
  const paths = (await engine.topics()).topics.map((t) => t.path);
  assert.ok(!paths.some((x) => x === "unsorted" || x.startsWith("unsorted.")), paths.join(", "));
  assert.deepEqual((await engine.recall("cat lamp", { under: "unsorted", k: 10 })).hits, []);
  assert.deepEqual((await engine.recall("cat lamp", { match: "unsorted", k: 10 })).hits, []);
  // the memory is still found, with no topic
  const found = (await engine.recall("cat knocked over the lamp", { k: 5 })).hits.find((h) => h.id === cat.id);
  assert.ok(found, "the memory is found by search");
  assert.equal(found.topic, null);
  // the memories not placed can be listed by their recorded decision
  assert.deepEqual((await engine.list({ filter: { "placement.abstained": true } })).memories.map((m) => m.id), [cat.id]);
  // a memory that fits a topic is placed as before
  const bread = await engine.remember({ text: "Baked a loaf of rye bread with caraway seeds." });
  assert.equal(bread.topic, "home.cooking");
  await engine.close();
});

test("placement.unsorted: true files a memory that fits no topic under `unsorted`, as before abstention", async () => {
  const engine = await fixtureEngine({ placement: { unsorted: true } });
  const cat = await engine.remember({ text: "The cat knocked over the lamp again." });
  assert.equal(cat.topic, "unsorted");
  const p = (await engine.show(cat.id)).metadata.placement as any;
  assert.equal(p.topic, "unsorted");
  assert.equal(p.abstained, true);
  assert.ok(TOPICS.some((t) => t.path === p.nearest));
  assert.equal((await engine.remember({ text: "Baked a loaf of rye bread with caraway seeds." })).topic, "home.cooking");
  assert.deepEqual(
    (await engine.topics("unsorted")).topics.map((t) => [t.path, t.count]),
    [["unsorted", 1]],
  );
  assert.deepEqual((await engine.recall("cat lamp", { under: "unsorted", k: 10 })).hits.map((h) => h.id), [cat.id]);
  // `unsorted` is not a topic to place into: its members never pull a memory in
  assert.equal((await engine.remember({ text: "The cat knocked over the vase again." })).topic, "unsorted");
  await engine.close();
  await assert.rejects(openMemory({ path: join(tempDir(), "bad.db"), placement: { unsorted: "yes" as any } }), /unsorted/);
});

test("show says why a memory was not placed, for a new store and for an `unsorted` row of an older one", async () => {
  const dir = tempDir();
  const db = join(dir, "show.db");
  // the first call a CLI process, the others in this process (helpers cliHere: the same output and exit code)
  const proc = (...args: string[]) => cli([...args, "--db", db]);
  const run = (...args: string[]) => cliHere([...args, "--db", db]);
  // the topics, their seeds and the two memories placed (or not) are written in this process (what is tested is
  // show; topic create and add have CLI tests of their own, and add --json prints what remember returns): eight
  // processes fewer
  const engine = await openMemory({ path: db });
  let added: { id: string; topic: string | null };
  let placed: { id: string; topic: string | null };
  try {
    for (const t of TOPICS.filter((x) => x.path === "eng.databases" || x.path === "home.cooking")) {
      await engine.createTopic(t.path, { description: t.description });
      for (const s of t.seeds) await engine.remember({ text: s, topic: t.path });
    }
    added = await engine.remember({ text: "The cat knocked over the lamp again." });
    placed = await engine.remember({ text: "Rewrote the SQL query to use the new index on the orders table." });
  } finally {
    await engine.close();
  }
  assert.equal(added.topic, null);
  const shown = proc("show", added.id).stdout;
  assert.match(shown, /^placement {3}not placed: nearest (eng\.databases|home\.cooking), similarity -?\d(\.\d+)?$/m);
  assert.doesNotMatch(shown, /^topic /m);
  assert.doesNotMatch(shown.split("\n").filter((l) => !l.startsWith("metadata")).join("\n"), /undefined|null|\[object|NaN/);
  assert.equal(placed.topic, "eng.databases");
  assert.match((await run("show", placed.id)).stdout, /^placement {3}automatic, to eng\.databases, confidence \d(\.\d+)?, similarity \d(\.\d+)?$/m);
  // a store written before abstention: the row stays under `unsorted`, its placement has no `abstained`
  const raw = new Database(db);
  raw.prepare("UPDATE memories SET topic = 'unsorted', metadata = ? WHERE id = ?").run(JSON.stringify({ placement: { topic: "unsorted", confidence: 0, similarity: 0.312, nearest: "home.cooking", runner_up: "eng.databases" } }), added.id);
  raw.close();
  const old = (await run("show", added.id)).stdout;
  assert.match(old, /^topic {7}unsorted$/m);
  assert.match(old, /^placement {3}not placed: nearest home\.cooking, similarity 0\.31$/m);
});

test("invalid paths and patterns: clear errors, exit code 2, nothing written", async () => {
  const dir = tempDir();
  const db = join(dir, "t.db");
  const proc = (...args: string[]) => cli([...args, "--db", db]);
  const run = (...args: string[]) => cliHere([...args, "--db", db]);
  // one CLI run per command and flag (the first a process, the others the CLI in this process, helpers cliHere: the
  // same output and exit code); the other paths of the same flag go to the engine call the command makes with the
  // flag's value as given (add → remember, search → recall), in this process: the same CascadeError, which the CLI
  // prints as one line with exit 2
  const cases: [string[], RegExp][] = [
    [["add", "x", "--topic", "a..b"], /topic: label 2 of "a\.\.b" is empty/],
    [["topic", "create", "a..b"], /topic: label 2/],
    [["topic", "move", "a", "b c"], /to: label 1/],
    [["search", "x", "--match", "a.*{2"], /match: .*unbalanced braces/],
    [["search", "x", "--under", "a b"], /under: label 1/],
  ];
  for (const [i, [args, message]] of cases.entries()) {
    const r = i === 0 ? proc(...args) : await run(...args);
    assert.equal(r.status, 2, args.join(" "));
    assert.match(r.stderr, message, args.join(" "));
    assert.equal(r.stderr.trim().split("\n").length, 1);
  }
  const inProcess: [string, (e: Awaited<ReturnType<typeof openMemory>>) => Promise<unknown>, RegExp][] = [
    ["add x --topic .a", (e) => e.remember({ text: "x", topic: ".a" }), /topic: label 1 of "\.a" is empty/],
    ["add x --topic a.", (e) => e.remember({ text: "x", topic: "a." }), /topic: label 2 of "a\." is empty/],
    ["add x --topic 'has space.b'", (e) => e.remember({ text: "x", topic: "has space.b" }), /topic: label 1 .* may hold only letters, digits, _ and -/],
    ["add x --topic a.x{101}", (e) => e.remember({ text: "x", topic: `a.${"x".repeat(101)}` }), /topic: label 2 .* has 101 characters; at most 100/],
    ["search x --match a..b", (e) => e.recall("x", { match: "a..b" }), /match: .*item 2 is empty/],
  ];
  const engine = await openMemory({ path: db });
  try {
    for (const [what, call, message] of inProcess) {
      await assert.rejects(call(engine), (e: unknown) => e instanceof CascadeError && e.isUsageError && message.test(e.message) && !e.message.includes("\n"), what);
    }
  } finally {
    await engine.close();
  }
  const listed = await run("topics", "--json");
  assert.deepEqual(listed.json ?? JSON.parse(listed.stdout || '{"topics": []}'), { topics: [] });
});

test("topics --under draws the subtree on a terminal and lists it as JSON", async () => {
  const dir = tempDir();
  const db = join(dir, "tree.db");
  // the first call a CLI process, the others in this process (helpers cliHere: the same output and exit code)
  const proc = (...args: string[]) => cli([...args, "--db", db]);
  const run = (...args: string[]) => cliHere([...args, "--db", db]);
  assert.equal(proc("topic", "create", "retrieval", "--description", "Finding memories").status, 0);
  // the memories under it are written in this process (what is tested is topics --under; add --topic has CLI tests
  // of its own, in cli and supersession): three processes fewer
  const engine = await openMemory({ path: db });
  try {
    await engine.remember({ text: "RRF with k 60", topic: "retrieval.fusion.rrf" });
    await engine.remember({ text: "Exact dense search", topic: "retrieval.dense" });
    await engine.remember({ text: "Fusion weights", topic: "retrieval.fusion" });
  } finally {
    await engine.close();
  }
  assert.equal(
    (await run("topics", "--under", "retrieval")).stdout.trim(),
    ["retrieval  (0 here, 3 in all)  — Finding memories", "├── dense  (1)", "└── fusion  (1 here, 2 in all)", "    └── rrf  (1)"].join("\n"),
  );
  const json = (await run("topics", "--under", "retrieval.fusion", "--json")).json;
  assert.deepEqual(json.topics.map((t: any) => [t.path, t.count, t.total]), [["retrieval.fusion", 1, 2], ["retrieval.fusion.rrf", 1, 1]]);
  const hit = (await run("search", "dense search", "--json")).json.hits[0];
  assert.equal(hit.topic, "retrieval.dense");
});
