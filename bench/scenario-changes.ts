/**
 * Scores "what is true now" on a scenario written apart from the rules it measures (test/fixtures/
 * scenario-changes.jsonl: two people's assistant memories over three weeks in ten everyday domains, with labelled
 * changes, confirmations, refinements, near misses and questions). Loads it with the SDK's defaults, each memory in
 * its user's scope, then reports change detection (precision, recall, false supersessions) and, for the questions,
 * hit@1, hit@10, the current value before the stale one, and hits from another user. Prints counts only.
 * Usage: node dist/bench/scenario-changes.js [FILE] [--json]
 */
import { readFileSync } from "node:fs";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openMemory } from "../src/index.js";

/** The kind of rule an edge's reason names (graph/cue-judge, graph/slot-judge): "cue", "value", "attribute", … */
function reasonKind(reason: string): string {
  if (/^cue:/.test(reason)) return /\bpolarity\b/.test(reason) ? "cue and polarity" : /\bvalue\b/.test(reason) ? "cue and value" : "cue";
  if (/^value\b/.test(reason)) return "value";
  if (/^another value:.*set aside/.test(reason)) return "set aside";
  if (/^another value: [^:]+ \([a-z ]+\):/.test(reason)) return "value of a kind";
  if (/^another value: [^:]+:/.test(reason)) return "attribute";
  return reason.split(/[:;(]/)[0].trim() || "other";
}

interface Line {
  type: string;
  [k: string]: unknown;
}

/** --explain prints each question's ranks and each missed change to stderr: for the in-sample file only. */
const explain = process.argv.includes("--explain");
const file = process.argv.slice(2).find((a) => !a.startsWith("--")) ?? new URL("../../test/fixtures/scenario-changes.jsonl", import.meta.url).pathname;
const lines = readFileSync(file, "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l) as Line);
const memories = lines.filter((l) => l.type === "memory");
const dir = mkdtempSync(join(tmpdir(), "cascade-scenario-"));
const lastAt = memories.map((m) => String(m.at)).sort().at(-1)!;
const engine = await openMemory({ path: join(dir, "m.db"), now: Date.parse(lastAt) + 3_600_000 });
try {
  const idOf = new Map<string, string>();
  const refOf = new Map<string, string>();
  const userOf = new Map<string, string>();
  for (const m of memories) {
    const r = await engine.remember({ text: String(m.text), at: String(m.at), user: String(m.user), role: String(m.role), speaker: String(m.speaker), session: String(m.session), metadata: { ref: String(m.ref) } });
    idOf.set(String(m.ref), r.id);
    refOf.set(r.id, String(m.ref));
    userOf.set(r.id, String(m.user));
  }
  await engine.settlePyramid(); // the questions are asked of the whole pyramid (a search does not wait for it)
  const pair = (o: unknown, n: unknown) => `${n}>${o}`;
  const changes = new Set(lines.filter((l) => l.type === "change").map((l) => pair(l.old, l.new)));
  const notChanges = new Set(lines.filter((l) => ["confirmation", "refinement"].includes(l.type)).map((l) => pair(l.old, l.new)));
  const edges = (await engine.list({ limit: 1000 })).edges.filter((e) => e.type === "supersedes" && e.retracted_at === null);
  const found = new Set(edges.map((e) => pair(refOf.get(e.to), refOf.get(e.from))));
  const truePositives = [...found].filter((p) => changes.has(p)).length;
  // an edge from a later link of a labelled chain (A -> B -> C) to an earlier one (C > A) replaces a value too
  const chained = new Set(changes);
  for (let grew = true; grew; ) {
    grew = false;
    for (const l of lines.filter((x) => x.type === "change"))
      for (const p of [...chained]) if (p.split(">")[1] === String(l.new) && !chained.has(pair(l.old, p.split(">")[0]))) (chained.add(pair(l.old, p.split(">")[0])), (grew = true));
  }
  const inChains = [...found].filter((p) => chained.has(p)).length;
  // precision by the detector's kind of reason: which rules draw the wrong edges, in counts only
  const byReason = new Map<string, { edges: number; right: number }>();
  for (const e of edges) {
    const kind = reasonKind(e.reason ?? "");
    const r = byReason.get(kind) ?? { edges: 0, right: 0 };
    r.edges++;
    if (chained.has(pair(refOf.get(e.to), refOf.get(e.from)))) r.right++;
    byReason.set(kind, r);
  }
  const nearMisses = new Set(lines.filter((l) => l.type === "near_miss").map((l) => pair(l.old, l.new)));
  const onNearMiss = [...found].filter((p) => nearMisses.has(p)).length;
  // a wrong edge into a memory a question needs as the answer: what the false supersessions cost
  const needed = new Set(lines.filter((l) => l.type === "question" && l.kind !== "previous").flatMap((l) => l.answer_refs as string[]));
  const intoNeeded = [...found].filter((p) => !chained.has(p) && needed.has(p.split(">")[1])).length;
  const onLabelledNonChange = [...found].filter((p) => notChanges.has(p)).length;
  const crossUser = edges.filter((e) => userOf.get(e.from) !== userOf.get(e.to)).length;
  const questions = lines.filter((l) => l.type === "question");
  const byKind = new Map<string, { n: number; hit1: number; hit10: number; currentFirst: number; withStale: number }>();
  let foreign = 0;
  for (const q of questions) {
    const r = await engine.recall(String(q.question), { k: 10, now: String(q.now), filter: { user: String(q.user) } });
    const refs = r.hits.map((h) => refOf.get(h.id));
    foreign += r.hits.filter((h) => h.user !== q.user).length;
    const answers = q.answer_refs as string[];
    const stale = (q.stale_refs as string[] | undefined) ?? [];
    const rank = (set: string[]) => {
      const i = refs.findIndex((x) => x !== undefined && set.includes(x));
      return i < 0 ? Infinity : i;
    };
    const s = byKind.get(String(q.kind)) ?? { n: 0, hit1: 0, hit10: 0, currentFirst: 0, withStale: 0 };
    s.n++;
    if (rank(answers) === 0) s.hit1++;
    if (rank(answers) < 10) s.hit10++;
    if (stale.length) {
      s.withStale++;
      if (rank(answers) < rank(stale)) s.currentFirst++;
    }
    byKind.set(String(q.kind), s);
    if (explain) console.error(`Q ${q.kind} "${q.question}": answer at ${rank(answers) + 1}, stale at ${rank(stale) + 1}; top ${refs.slice(0, 5).join(" ")}`);
  }
  if (explain) {
    for (const l of lines.filter((x) => x.type === "change")) if (!found.has(pair(l.old, l.new))) console.error(`missed ${l.old} -> ${l.new} (${l.attribute})`);
    for (const p of found) if (!changes.has(p)) console.error(`extra edge ${p}`);
  }
  const report = {
    memories: memories.length,
    changes: { labelled: changes.size, found: truePositives, recall: truePositives / changes.size, edges: found.size, precision: found.size ? truePositives / found.size : 1, within_chains: inChains, on_confirmations_or_refinements: onLabelledNonChange, on_near_misses: onNearMiss, wrong_into_answers: intoNeeded, across_users: crossUser, by_reason: Object.fromEntries(byReason) },
    questions: Object.fromEntries(byKind),
    hits_from_another_user: foreign,
  };
  if (process.argv.includes("--json")) console.log(JSON.stringify(report, null, 2));
  else {
    const c = report.changes;
    console.log(`${report.memories} memories; changes: ${c.found} of ${c.labelled} found (recall ${c.recall.toFixed(3)}), ${c.edges} supersedes edges (precision ${c.precision.toFixed(3)}; ${c.within_chains} within a labelled chain), ${c.on_confirmations_or_refinements} on a confirmation or refinement, ${c.on_near_misses} on a near miss, ${c.wrong_into_answers} wrong ones into a question's answer, ${c.across_users} across users`);
    console.log(`edges within a labelled chain, by reason: ${[...byReason].map(([k, r]) => `${k} ${r.right}/${r.edges}`).join(", ")}`);
    for (const [kind, s] of byKind) console.log(`questions ${kind}: ${s.n}; hit@1 ${s.hit1}, hit@10 ${s.hit10}; answer before the stale value ${s.currentFirst} of ${s.withStale}`);
    console.log(`hits from another user: ${foreign}`);
  }
} finally {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
}
