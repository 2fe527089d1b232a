/**
 * Each read-time step can be switched off (`steps: {"echoes": false}`), per search or as an engine default, and a
 * search says what each step did (`steps` in its answer). A step switched off changes nothing else: where it moved
 * nothing, the search answers exactly as with every step on. An unknown step is one answer on every surface.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { CascadeError, STEP_NAMES, openMemory, type Engine, type SearchResult, type StepName } from "../src/index.js";
import type { RunningServer } from "../src/surfaces/http/serve.js";
import { cli, cliHere, tempDir } from "./helpers.js";
import { openEverySurface, type EverySurface } from "./every-surface.js";

/** What a search answers, without its timings. */
const answer = (r: SearchResult) => ({ hits: r.hits, context: r.context, candidates: Object.fromEntries(Object.entries(r.channels).map(([c, rep]) => [c, rep!.candidates])) });

test("a step switched off changes nothing else: where it moved nothing, the answer is the default's", async () => {
  const lines = readFileSync(new URL("../../test/fixtures/scenario-changes-5.jsonl", import.meta.url), "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l) as Record<string, string>);
  const memories = lines.filter((l) => l.type === "memory");
  const engine = await openMemory({ path: join(tempDir(), "m.db"), now: Date.parse(memories.map((m) => m.at).sort().at(-1)!) + 3_600_000 });
  try {
    await engine.rememberMany(memories.map((m) => ({ text: m.text, at: m.at, user: m.user, role: m.role, speaker: m.speaker, session: m.session, metadata: { ref: m.ref } })));
    await engine.settlePyramid(); // a search does not wait for the refresh: one ending between two searches would change the answers compared
    const changedBy = new Set<StepName>();
    let compared = 0;
    for (const q of lines.filter((l) => l.type === "question")) {
      const options = { k: 10, now: q.now, filter: { user: q.user } };
      const all = await engine.recall(q.question, options);
      assert.deepEqual(Object.keys(all.steps), [...STEP_NAMES], "every step reported, in the order they run");
      for (const name of STEP_NAMES) {
        const off = await engine.recall(q.question, { ...options, steps: { [name]: false } });
        assert.equal(off.steps[name], "off", `${q.question}: ${name}`);
        if (all.steps[name] === "changed") {
          changedBy.add(name);
          continue;
        }
        assert.deepEqual(answer(off), answer(all), `${q.question}: ${name} moved nothing, so switching it off changes nothing`);
        assert.deepEqual(off.steps, { ...all.steps, [name]: "off" }, `${q.question}: ${name}`);
        compared++;
      }
    }
    console.log(`steps that changed a ranking: ${[...changedBy].join(", ")}; ${compared} searches with one step off compared`);
    // the scenario sets off several steps (else the comparison above would only show steps that never move)
    assert.ok(changedBy.size >= 4, `steps that changed a ranking: ${[...changedBy].join(", ")}`);
    assert.ok(compared > 200, `${compared} comparisons`);
  } finally {
    await engine.close();
  }
});

/** Ivo's number, replaced: a question about the former value ranks the replaced memory first (query/former-values). */
async function numbers(config: Parameters<typeof openMemory>[0] = {}) {
  const engine = await openMemory({ path: join(tempDir(), "m.db"), now: Date.parse("2026-06-30T00:00:00Z"), ...config });
  const say = (text: string, at: string) => engine.remember({ text, at, user: "ivo", role: "user", speaker: "ivo" });
  const old = await say("sorting my contacts: my mobile number is 07700 900111 and my email is ivo@example.org", "2026-06-01T10:00:00Z");
  const now = await say("got a new sim, my number is 07700 900222 now", "2026-06-10T10:00:00Z");
  await engine.settlePyramid(); // a refresh ending between two compared searches would change the second
  return { engine, old: old.id, now: now.id };
}
const FORMER = "what was my old mobile number?";
const ASK = { k: 5, filter: { user: "ivo" } };

test("former values switched off: the replaced number no longer comes first, and the answer says the step was off", async () => {
  const { engine, old, now } = await numbers();
  try {
    const on = await engine.recall(FORMER, ASK);
    assert.equal(on.hits[0].id, old);
    assert.equal(on.steps["former-values"], "changed");
    const off = await engine.recall(FORMER, { ...ASK, steps: { "former-values": false } });
    // as every other question ranks it: the current number first, the superseded one demoted below it
    assert.deepEqual(off.hits.slice(0, 2).map((h) => h.id), [now, old]);
    assert.ok(!off.hits.some((h) => h.adjustments.some((a) => a.reason.startsWith("a former value"))));
    assert.equal(off.steps["former-values"], "off");
    // one channel asked alone: its own ranking, no step run
    const alone = await engine.recall(FORMER, { ...ASK, channels: ["bm25"] });
    assert.ok(Object.values(alone.steps).every((s) => s === "not run"), JSON.stringify(alone.steps));
  } finally {
    await engine.close();
  }
});

test("an engine default switches a step off for every search; a search can switch it back on", async () => {
  const { engine, old, now } = await numbers({ search: { steps: { "former-values": false } } });
  try {
    const byDefault = await engine.recall(FORMER, ASK);
    assert.equal(byDefault.hits[0].id, now);
    assert.equal(byDefault.steps["former-values"], "off");
    const back = await engine.recall(FORMER, { ...ASK, steps: { "former-values": true } });
    assert.equal(back.hits[0].id, old);
    assert.equal(back.steps["former-values"], "changed");
  } finally {
    await engine.close();
  }
  await assert.rejects(openMemory({ path: join(tempDir(), "m.db"), search: { steps: { echos: false } as never } }), (e: unknown) => e instanceof CascadeError && e.code === "INVALID_INPUT" && /^search\.steps: unknown step "echos"/.test(e.message));
});

test("coverage: false and steps {coverage: false} are one switch", async () => {
  const { engine } = await numbers();
  try {
    const question = "in what order did I mention my numbers?";
    const a = await engine.recall(question, { ...ASK, coverage: false });
    const b = await engine.recall(question, { ...ASK, steps: { coverage: false } });
    assert.equal(a.steps.coverage, "off");
    assert.deepEqual(answer(a), answer(b));
    assert.deepEqual(a.steps, b.steps);
  } finally {
    await engine.close();
  }
});

describe("an unknown step: one answer on every surface", () => {
  const NOW = "2026-06-20T09:00:00Z";
  const db = join(tempDir(), "steps.db");
  const MESSAGE = `steps: unknown step "echo": a step is one of ${STEP_NAMES.join(", ")}`;
  let surfaces: EverySurface | undefined;
  let engine: Engine;
  let server: RunningServer;
  let mcp: Client;
  before(async () => {
    surfaces = await openEverySurface(db, NOW);
    ({ engine, server, mcp } = surfaces);
  });
  after(async () => {
    await surfaces?.close();
  });

  test("SDK, CLI, HTTP and MCP refuse it in the same words", async () => {
    await assert.rejects(engine.recall("deploy freeze", { steps: { echo: false } as never }), (e: unknown) => e instanceof CascadeError && e.code === "INVALID_INPUT" && e.message === MESSAGE);
    const r = cli(["search", "deploy freeze", "--skip-step", "echo", "--db", db, "--now", NOW]);
    assert.equal(r.status, 2, r.stderr);
    // the CLI names the flag typed, then the same words
    assert.match(r.stderr, /^cascade: [^\n]*\n$/, "one line");
    assert.ok(r.stderr.includes(`--skip-step: unknown ${MESSAGE.slice("steps: unknown ".length)}`), r.stderr);
    const res = await fetch(server.url + "/v1/search", { method: "POST", headers: { "content-type": "application/json", connection: "close" }, body: JSON.stringify({ query: "deploy freeze", steps: { echo: false } }) });
    assert.equal(res.status, 400);
    assert.deepEqual(await res.json(), { error: { code: "INVALID_INPUT", message: MESSAGE, field: "steps" } });
    const m = (await mcp.callTool({ name: "memory_search", arguments: { query: "deploy freeze", steps: { echo: false } } })) as { isError?: boolean; content: { text: string }[] };
    assert.equal(m.isError, true);
    assert.match(m.content[0].text, /unknown step "echo": a step is one of neighbours, /);
    // a known step, switched off from the CLI: the search runs
    const ok = await cliHere(["search", "deploy freeze", "--skip-step", "echoes,standing", "--json", "--db", db, "--now", NOW]);
    assert.equal(ok.status, 0, ok.stderr);
    const steps = JSON.parse(ok.stdout).steps;
    assert.equal(steps.echoes, "off");
    assert.equal(steps.standing, "off");
  });
});
