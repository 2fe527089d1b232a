/**
 * The whole engine on the PostgreSQL store (PGlite in process, opened by location as a user would): the demo
 * corpus remembered, the demo queries recalled, and the answers compared with the same engine on SQLite. Same
 * memories, same ids, same BM25 scores and cosines, so the same hits in the same order; then a correction, a
 * forget, the pyramid and the doctor, and a second namespace in the same database seeing none of it.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { CascadeError, DEMO_NOW, demoCorpus, demoQueries, openMemory, parseInstant, type Engine } from "../src/index.js";
import { PG_URL } from "./pg-server.js";

const now = parseInstant("now", DEMO_NOW);

/**
 * The demo corpus remembered on one PGlite, for the first two tests: the comparison with SQLite reads it, then the
 * corrections test changes it (a PGlite costs seconds of CPU to start and fill). Closed after the file.
 */
let demoPg: Promise<{ engine: Engine; ids: string[]; imported: number }> | undefined;
const demoOnPglite = () =>
  (demoPg ??= (async () => {
    const engine = await openMemory({ path: "pglite:memory", now });
    const r = await engine.rememberMany(demoCorpus);
    await engine.settlePyramid();
    return { engine, ids: r.ids as string[], imported: r.imported };
  })());
after(async () => {
  if (demoPg) await (await demoPg).engine.close();
});

const server = PG_URL;
const locations: [string, string][] = [["PGlite", "pglite:memory"]];
if (server) locations.push(["the CASCADE_PG_URL server", `${server}#namespace=engine_${process.pid}_${Date.now()}`]);

for (const [name, location] of locations) test(`the demo queries find the same memories in the same order on PostgreSQL (${name}) as on SQLite`, async () => {
  const sqlite = await openMemory({ path: ":memory:", now });
  const shared = location === "pglite:memory" ? await demoOnPglite() : undefined;
  const pg = shared?.engine ?? (await openMemory({ path: location, now }));
  try {
    const a = await sqlite.rememberMany(demoCorpus);
    const b = shared ?? (await pg.rememberMany(demoCorpus));
    // the same summaries on both: a search waits for a refresh only so long (engine.pyramid.searchWaitMs), and a
    // server's refresh may take longer than SQLite's in process
    await sqlite.settlePyramid();
    if (!shared) await pg.settlePyramid();
    assert.equal(b.imported, a.imported);
    const idOf = new Map((b.ids as string[]).map((id, i) => [id, (a.ids as string[])[i]]));
    for (const q of demoQueries) {
      const want = (await sqlite.recall(q.query, { k: q.k })).hits.map((h) => h.id);
      const got = (await pg.recall(q.query, { k: q.k })).hits.map((h) => idOf.get(h.id));
      assert.deepEqual(got, want, q.query);
    }
    // questions that name only a time: the time channel lists the window's memories through the store
    for (const query of ["what happened last Tuesday", "what happened last week"]) {
      for (const time of ["boost", "restrict"] as const) {
        const want = (await sqlite.recall(query, { time })).hits.map((h) => h.id);
        const got = (await pg.recall(query, { time })).hits.map((h) => idOf.get(h.id));
        assert.deepEqual(got, want, `${query} (${time})`);
        assert.ok(want.length > 0, query);
      }
    }
    const pgStats = await pg.stats();
    assert.equal(pgStats.memories, (await sqlite.stats()).memories);
    assert.equal(pgStats.chunks, (await sqlite.stats()).chunks);
  } finally {
    await sqlite.close();
    if (!shared) await pg.close();
  }
});

test("corrections, forgetting, the pyramid and the doctor work on PostgreSQL (PGlite)", async () => {
  // the first test's PGlite, which it only read; the same store when this test runs alone
  const { engine, ids } = await demoOnPglite();
  const updated = await engine.update(ids[0], { text: "A corrected note about zanzibar ferries." });
  assert.equal(updated.text, "A corrected note about zanzibar ferries.");
  assert.equal((await engine.recall("zanzibar ferries", { k: 3 })).hits[0].id, ids[0]);
  await engine.forget(ids[1]);
  assert.ok(!(await engine.recall(demoCorpus[1].text, { k: 10 })).hits.some((h) => h.id === ids[1]));
  const pyramid = await engine.pyramid();
  assert.ok(pyramid.nodes.length > 0, "the pyramid was built");
  const doctor = await engine.doctor();
  assert.ok(doctor.ok, JSON.stringify(doctor.checks.filter((c) => !c.ok)));
});

test("namespaces share one PostgreSQL database and see only their own rows, exist once written; a PGlite data directory persists", async () => {
  const dir = mkdtempSync(join(tmpdir(), "cascade-pglite-"));
  try {
    const path = `pglite:${dir}`;
    let engine = await openMemory({ path, now });
    const kept = await engine.remember({ text: "The default namespace remembers the harbour ferry timetable." });
    await engine.close();
    engine = await openMemory({ path, namespace: "team-b", now });
    assert.equal((await engine.stats()).memories, 0, "another namespace starts empty");
    await engine.remember({ text: "Team B keeps its own notes about ferries." });
    assert.equal((await engine.recall("harbour ferry timetable", { k: 5 })).hits.some((h) => h.id === kept.id), false);
    await engine.close();
    engine = await openMemory({ path, namespace: "team-b", createNamespace: false, now });
    assert.equal((await engine.stats()).memories, 1, "a written namespace exists");
    await engine.close();
    await assert.rejects(openMemory({ path, namespace: "ghost", createNamespace: false, now }), (e: unknown) => e instanceof CascadeError && e.code === "NOT_FOUND");
    engine = await openMemory({ path, now });
    assert.equal((await engine.stats()).memories, 1, "the default namespace kept its one memory across a reopen");
    assert.equal((await engine.recall("harbour ferry timetable", { k: 5 })).hits[0].id, kept.id);
    await engine.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
