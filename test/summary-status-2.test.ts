/**
 * Superseded summary sources and scopes on the second fixture (test/fixtures/summary-scope-2.ts): each check is one thing a reader must or
 * must not see in `context` or `pyramid show`; the score is printed, and every check must hold.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { MemorySpace, parseInstant, type ContextEntry, type Engine, type RecallOptions } from "../src/index.js";
import { OTHER_NAMESPACE, SCOPE2_NOW, TEXT, scopeNotes } from "./fixtures/summary-scope-2.js";
import { tempDir } from "./helpers.js";

test("second fixture: statuses, filters and namespaces in context and pyramid show", async () => {
  const space = new MemorySpace(join(tempDir(), "scope2.db"), { now: parseInstant("now", SCOPE2_NOW) });
  const other = await space.acquire("finance", { create: true });
  await other.engine.rememberMany([OTHER_NAMESPACE], { detect: false });
  other.release();
  const lease = await space.acquire();
  const engine: Engine = lease.engine;
  const { ids } = await engine.rememberMany(scopeNotes(), { detect: false });
  const idOf = (text: string) => ids[scopeNotes().findIndex((m) => m.text === text)] as string;
  // the rollback was first recorded as replacing the raise, then that edge was taken back
  const edge = await engine.supersede(idOf(TEXT.timeout2), idOf(TEXT.timeout1));
  await engine.retract(edge.id);

  const sentencesNow = (await engine.pyramid()).nodes.flatMap((n) => n.sentences ?? []);
  const statusOf = (text: string) => [...new Set(sentencesNow.filter((s) => s.text === text).map((s) => `${s.status}${s.superseded_by.length ? ` by ${s.superseded_by.join(",")}` : ""}`))];
  const month = async (options: RecallOptions) => (await engine.recall("what happened this month", options)).context;
  const read = (context: ContextEntry[]) => context.map((c) => c.text).join("\n");
  const checks: [string, () => Promise<boolean>][] = [
    ["the first plan is marked superseded by the second", async () => statusOf(TEXT.review1).join() === `superseded by ${idOf(TEXT.review2)}`],
    ["the second plan is marked superseded by the third", async () => statusOf(TEXT.review2).join() === `superseded by ${idOf(TEXT.review3)}`],
    ["the third plan is current", async () => statusOf(TEXT.review3).join() === "current"],
    ["a retracted supersession marks nothing", async () => statusOf(TEXT.timeout1).join() === "current"],
    ["a memory that only mentions room B is current", async () => statusOf(TEXT.chairs).join() === "current"],
    // (the month's own summary leaves the first plan out: it was replaced inside the month)
    ["the first week's context marks the stale plan in its text", async () => {
      const c = await engine.recall("what happened last week", { now: "2026-04-08T09:00:00Z", asOf: SCOPE2_NOW });
      return read(c.context).includes(`${TEXT.review1} [superseded by ${idOf(TEXT.review2)}]`);
    }],
    ["current-only leaves both stale plans out and keeps the third", async () => {
      const t = read(await month({ currentOnly: true, filter: { project: "atlas" } }));
      return !t.includes(TEXT.review1) && !t.includes(TEXT.review2) && t.includes(TEXT.review3);
    }],
    ["as of 13 April, last week's second plan is still current", async () => {
      const c = await engine.recall("what happened last week", { now: "2026-04-13T09:00:00Z", asOf: "2026-04-13T09:00:00Z" });
      const s = c.context.flatMap((e) => e.sentences ?? []).find((x) => x.text === TEXT.review2);
      return s?.status === "current" && !read(c.context).includes("superseded");
    }],
    ["agent=support: no planner sentence", async () => {
      const t = read(await month({ filter: { agent: "support" } }));
      return t.includes("Zephyr") && !/Atlas|Room B/.test(t);
    }],
    ["project=atlas (metadata): no Zephyr sentence", async () => {
      const t = read(await month({ filter: { project: "atlas" } }));
      return t.includes("Atlas") && !/Zephyr/.test(t);
    }],
    ["under support: no ops.atlas sentence", async () => {
      const t = read(await month({ under: "support" }));
      return t.includes("Zephyr") && !/Atlas|Room B/.test(t);
    }],
    ["a filter nobody matches: no context at all", async () => (await month({ filter: { agent: "nobody" } })).length === 0],
    ["another namespace's memory never appears", async () => !/vault|7781/.test(read(await month({})) + sentencesNow.map((s) => s.text).join())],
  ];
  const failed: string[] = [];
  for (const [name, check] of checks) if (!(await check())) failed.push(name);
  console.log(`second fixture: ${checks.length - failed.length}/${checks.length} checks hold`);
  lease.release();
  await space.close();
  assert.deepEqual(failed, []);
});
