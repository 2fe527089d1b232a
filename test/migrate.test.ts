/**
 * `cascade migrate` and the SDK's migrateStore: a SQLite store holding the demo corpus, an extra supersession, a
 * correction, a topic, a built pyramid, entities and a second namespace is copied into PGlite and into another
 * SQLite file. The copies hold the same counts, answer the demo queries with the same hits in the same order,
 * show the superseded memory superseded, and tell the same history. Refusals (a non-empty target, the source
 * itself, a source that is not there) change nothing and exit 2 naming the flag.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { before, test } from "node:test";
import { CascadeError, DEMO_NOW, demoCorpus, demoQueries, migrateStore, openMemory, openStoreAt, parseInstant, type Engine, type MigrateReport } from "../src/index.js";
import { cli, cliHere, tempDir } from "./helpers.js";

const now = parseInstant("now", DEMO_NOW);
const dir = tempDir();
const source = join(dir, "team.db");
let ids: string[] = [];
/** The fraud-call note, superseded by hand (the demo corpus's own supersession is the YAML decision). */
let superseded = "";

const open = (path: string, namespace?: string) => openMemory({ path, namespace, now });

before(async () => {
  const engine = await open(source);
  try {
    ids = (await engine.rememberMany(demoCorpus)).ids as string[];
    superseded = ids[13];
    await engine.supersede(ids[17], superseded);
    await engine.update(ids[0], { text: "Kick-off for payments v2, corrected: goals are p95 below 300 ms and tokenisation out of the monolith." });
    await engine.createTopic("ops.oncall", { description: "rotas and handbooks" });
    await engine.buildPyramid();
    assert.ok((await engine.entities()).entities.length > 0, "the demo corpus names entities");
  } finally {
    await engine.close();
  }
  const other = await open(source, "team-b");
  await other.remember({ text: "Team B keeps the harbour ferry timetable." });
  await other.close();
});

async function withBoth<T>(target: string, fn: (from: Engine, to: Engine) => Promise<T>): Promise<T> {
  const [from, to] = [await open(source), await open(target)];
  try {
    return await fn(from, to);
  } finally {
    await from.close();
    await to.close();
  }
}

async function sameAnswers(target: string): Promise<void> {
  await withBoth(target, async (from, to) => {
    for (const q of demoQueries) {
      const hits = async (e: Engine) => (await e.recall(q.query, { k: q.k })).hits.map((h) => [h.id, h.status]);
      assert.deepEqual(await hits(to), await hits(from), q.query);
    }
    const status = async (e: Engine) => (await e.recall("fraud scoring in parallel with tokenisation", { k: 10 })).hits.find((h) => h.id === superseded);
    assert.equal((await status(to))?.status, "superseded");
    assert.deepEqual((await status(to))?.superseded_by, [ids[17]]);
    for (const id of [ids[0], ids[3], superseded]) assert.deepEqual(await to.history(id), await from.history(id), `history of ${id}`);
    assert.deepEqual(await to.pyramid(), await from.pyramid());
    assert.deepEqual(await to.topics(), await from.topics());
    assert.deepEqual(await to.entities(), await from.entities());
    const stats = async (e: Engine) => ({ ...(await e.stats()), bytes: 0, terms: 0 });
    assert.deepEqual(await stats(to), await stats(from));
    const doctor = await to.doctor();
    assert.ok(doctor.ok, `the copy's derived indexes agree with its tables: ${JSON.stringify(doctor.checks.filter((c) => !c.ok))}`);
  });
  const b = await open(target, "team-b");
  try {
    assert.equal((await b.recall("harbour ferry timetable", { k: 1 })).hits.length, 1, "the second namespace came along");
  } finally {
    await b.close();
  }
}

function checkReport(report: MigrateReport): void {
  assert.ok(report.ok);
  assert.deepEqual(report.namespaces.map((n) => n.namespace), ["default", "team-b"]);
  const main = report.namespaces[0];
  assert.deepEqual(main.target, main.source);
  assert.equal(main.source.memories, demoCorpus.length);
  assert.ok(main.source.summaries > 0 && main.source.entities > 0 && main.source.mentions > 0 && main.source.contexts > 0, JSON.stringify(main.source));
  assert.ok(main.source.edges >= 2, "the corpus's supersession and the one added by hand");
  assert.equal(main.source.revisions, 1);
  assert.equal(main.source.topics, 1);
}

test("a SQLite store migrates into PGlite: same counts, hits, order, supersession, history, pyramid, topics, entities, namespaces", async () => {
  const target = `pglite:${join(dir, "pg")}`;
  const progress: { namespace: string; done: number; total: number }[] = [];
  const report = await migrateStore({ from: source, to: target, batch: 7, onProgress: (p) => progress.push(p) });
  checkReport(report);
  const last = progress.filter((p) => p.namespace === "default").at(-1)!;
  assert.equal(last.done, last.total, "progress reaches the total");
  assert.ok(progress.length > 5, "one report per page");
  await sameAnswers(target);
});

test("a SQLite store migrates into another SQLite file, namespaces as files beside it", async () => {
  const target = join(dir, "copy.db");
  checkReport(await migrateStore({ from: source, to: target }));
  assert.deepEqual(readdirSync(`${target}.ns`), ["team-b.db"]);
  await sameAnswers(target);
});

test("refusals change nothing: a non-empty target, the source itself, a missing or empty source", async () => {
  const target = join(dir, "busy.db");
  const busy = await open(target);
  await busy.remember({ text: "Already here." });
  await busy.close();
  const refused = (field: string) => (err: unknown) => err instanceof CascadeError && err.code === "INVALID_INPUT" && err.field === field;
  await assert.rejects(migrateStore({ from: source, to: target }), refused("--to"));
  const after = await open(target);
  assert.equal((await after.stats()).memories, 1, "the refused target is untouched");
  await after.close();
  await assert.rejects(migrateStore({ from: source, to: `${dir}/./sub/../team.db` }), refused("--to"), "another spelling of the source");
  await assert.rejects(migrateStore({ from: join(dir, "nothing.db"), to: join(dir, "x.db") }), refused("--from"));
  assert.equal(existsSync(join(dir, "x.db")), false, "nothing was created");
  await assert.rejects(migrateStore({ from: `pglite:${join(dir, "no-such-dir")}`, to: join(dir, "y.db") }), refused("--from"));
  const empty = join(dir, "empty.db");
  await (await openStoreAt(empty)).close();
  await assert.rejects(migrateStore({ from: empty, to: join(dir, "w.db") }), refused("--from"));
  assert.equal(existsSync(join(dir, "w.db")), false, "nothing was created");
});

test("cascade migrate: a table or JSON of both sides' counts; exit 2 naming the flag for a refused target or source", async () => {
  const target = join(dir, "cli.db");
  const ok = cli(["migrate", "--from", source, "--to", target, "--json"]);
  assert.equal(ok.status, 0, ok.stderr);
  assert.equal(ok.json.ok, true);
  assert.deepEqual(ok.json.namespaces[0].target, ok.json.namespaces[0].source);

  const again = await cliHere(["migrate", "--from", source, "--to", target]);
  assert.equal(again.status, 2);
  assert.equal(again.stderr.trim().split("\n").length, 1, again.stderr);
  assert.match(again.stderr, /--to: .* already holds a store/);

  const missing = await cliHere(["migrate", "--from", join(dir, "absent.db"), "--to", join(dir, "z.db")]);
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /--from: no store at/);

  const same = await cliHere(["migrate", "--from", source, "--to", source]);
  assert.equal(same.status, 2);
  assert.match(same.stderr, /--to: .* is the source itself/);

  const table = await cliHere(["migrate", "--from", source, "--to", join(dir, "table.db")]);
  assert.equal(table.status, 0, table.stderr);
  assert.match(table.stdout, /memories\s+30\s+30/);
  assert.match(table.stdout, /every count agrees/);
});
