/**
 * Chooses the graph channel's weight and walk settings by leave-one-conversation-out on LoCoMo, and reports the
 * cross-validated figures beside the in-sample ones (never an in-sample figure alone).
 *
 *   npm run build && node dist/bench/graph-cv.js /work/shared/data/locomo [--json]
 *
 * The first run (grid with restart {0, 0.5}) picked restart 0 for every held-out conversation; the grid now
 * holds restart 0 only, so that a run takes minutes. Each conversation is ingested once; every setting of the grid (and "graph off") answers every question over
 * the same store. For each held-out conversation the setting with the best Recall@10 on the other five is
 * applied to it; the cross-validated figure pools those held-out answers.
 */
import { Engine, SqliteStore, defaultGloveEmbedder, loadLocomo, scoreQuestion, type ChannelName, type GraphChannelOptions } from "../src/index.js";

interface Setting {
  name: string;
  weight: number;
  graph: Partial<GraphChannelOptions>;
}

const OFF: ChannelName[] = ["bm25", "dense", "curated", "recency", "colbert", "time"];

export const GRID: Setting[] = [];
for (const weight of [0.5, 1]) {
  for (const seeds of [10, 20]) {
    for (const restart of [0]) {
      for (const maxFanout of [50, 200]) GRID.push({ name: `w${weight}-s${seeds}-r${restart}-f${maxFanout}`, weight, graph: { seeds, restart, maxFanout } });
    }
  }
}

type Answer = { conv: string; category: string; recall: number };

async function main() {
  const path = process.argv[2] ?? "/work/shared/data/locomo";
  const json = process.argv.includes("--json");
  const conversations = loadLocomo(path);
  const embedder = defaultGloveEmbedder();
  const answers = new Map<string, Answer[]>([["off", []], ...GRID.map((s): [string, Answer[]] => [s.name, []])]);
  for (const [ci, conv] of conversations.entries()) {
    const store = new SqliteStore(":memory:");
    const loader = await Engine.create({ store, embedder, tokens: embedder });
    const imported = await loader.rememberMany(conv.turns.map((t) => t.input));
    await loader.settlePyramid(); // the settings' engines search what the loader's refresh summarised
    const dia = new Map<string, string>();
    imported.ids.forEach((id, i) => id && dia.set(id, conv.turns[i].id));
    const now = new Date(Math.max(...conv.turns.map((t) => Date.parse(t.input.at!))) + 86_400_000).toISOString();
    const settings: [string, Engine, ChannelName[] | undefined][] = [["off", loader, OFF]];
    for (const s of GRID) settings.push([s.name, await Engine.create({ store, embedder, tokens: embedder }, { graph: s.graph, search: { weights: { graph: s.weight } } }), undefined]);
    for (const q of conv.questions) {
      if (q.evidence.length === 0) continue;
      for (const [name, engine, channels] of settings) {
        const r = await engine.recall(q.question, { now, k: 10, ...(channels ? { channels } : {}) });
        const m = scoreQuestion(r.hits.map((h) => dia.get(h.id) ?? h.id), new Set(q.evidence));
        answers.get(name)!.push({ conv: String(ci), category: String(q.category), recall: m["recall@10"] });
      }
    }
    process.stderr.write(`conversation ${ci + 1}/${conversations.length}\n`);
    await store.close();
  }
  const mean = (xs: Answer[]) => (xs.length ? Math.round((xs.reduce((s, a) => s + a.recall, 0) / xs.length) * 10000) / 10000 : 0);
  const summary = (xs: Answer[]) => {
    const cats = [...new Set(xs.map((a) => a.category))].sort();
    return { overall: mean(xs), ...Object.fromEntries(cats.map((c) => [c, mean(xs.filter((a) => a.category === c))])) };
  };
  const inSample = Object.fromEntries([...answers].map(([name, xs]) => [name, summary(xs)]));
  // leave one conversation out: pick on five, apply to the sixth
  const chosen: Record<string, string> = {};
  const heldOut: Answer[] = [];
  for (const ci of conversations.keys()) {
    const c = String(ci);
    let best = GRID[0].name;
    let bestScore = -1;
    for (const s of GRID) {
      const score = mean(answers.get(s.name)!.filter((a) => a.conv !== c));
      if (score > bestScore) [best, bestScore] = [s.name, score];
    }
    chosen[c] = best;
    heldOut.push(...answers.get(best)!.filter((a) => a.conv === c));
  }
  const report = { questions: answers.get("off")!.length, off: inSample.off, cross_validated: summary(heldOut), chosen, in_sample: inSample };
  if (json) process.stdout.write(JSON.stringify(report, null, 2) + "\n");
  else {
    const cats = Object.keys(report.off);
    const row = (name: string, r: Record<string, number>) => `| ${name} | ${cats.map((c) => r[c].toFixed(4)).join(" | ")} |`;
    console.log(`| Recall@10 | ${cats.join(" | ")} |\n|---|${cats.map(() => "---:").join("|")}|`);
    console.log(row("graph off", report.off));
    console.log(row("graph on, cross-validated", report.cross_validated));
    for (const s of GRID) console.log(row(`${s.name} (in-sample)`, inSample[s.name]));
    console.log(`chosen per held-out conversation: ${JSON.stringify(chosen)}`);
  }
}

await main();
