/**
 * How the search's `context` is chosen, by leave-one-conversation-out: each configuration of
 * query/context.ts is scored per LoCoMo conversation (evidence@500 + evidence@1000, pyramid on); for each
 * held-out conversation the configuration best on the other five is picked and scored on it. Prints the grid
 * (in-sample) and the cross-validated figures beside the pyramid off.
 *
 *   npm run build && node dist/bench/context-cv.js [LOCOMO_PATH]
 */
import { defaultGloveEmbedder, scratchStores, evaluate, loadLocomo, type EngineConfig } from "../src/index.js";

const path = process.argv[2] ?? "../shared/data/locomo";
const conversations = loadLocomo(path);
const embedder = defaultGloveEmbedder();
const budgets = [250, 500, 1000, 2000];
const KEYS = ["recall@10", "evidence@250", "evidence@500", "evidence@1000", "evidence@2000"];

type Ctx = NonNullable<EngineConfig["context"]>;
const grid: [string, Ctx | null][] = [["pyramid off", null], ["no context", { max: 0 }]];
// hits 0: only the summaries of a time span the question names (the span's excerpt is 3 × sentences long);
// windows "revised": a hit's window only when it holds a later state of a hit; "always": every window
grid.push(["always turn+day+week s1 sim0.6 h1", { levels: ["turn", "day", "week"], sentences: 1, minSimilarity: 0.6, hits: 1, max: 3, windows: "always" }]);
for (const sentences of [2, 3, 4, 5])
  for (const hits of [0, 3, 10]) grid.push([`revised turn+day+week s${sentences} h${hits}`, { levels: ["turn", "day", "week"], sentences, minSimilarity: 0.6, hits, max: 3, windows: "revised" }]);

/** scores[config][conversation] = {metric: value, questions} */
const scores: Record<string, number>[][] = [];
for (const [name, context] of grid) {
  const row: Record<string, number>[] = [];
  for (const conv of conversations) {
    const r = await evaluate("locomo", [conv], { embedder, tokens: embedder, stores: scratchStores() }, {
      ablation: false,
      budgets,
      pyramid: context !== null,
      engine: context ? { context } : {},
    });
    row.push({ ...(r.overall as unknown as Record<string, number>), questions: r.questions });
  }
  scores.push(row);
  process.stderr.write(`${name}\n`);
}

const mean = (rows: Record<string, number>[], key: string) => rows.reduce((s, r) => s + r[key] * r.questions, 0) / rows.reduce((s, r) => s + r.questions, 0);
const objective = (rows: Record<string, number>[]) => mean(rows, "evidence@500") + mean(rows, "evidence@1000");
const fmt = (x: number) => x.toFixed(4);

console.log(`| configuration | ${KEYS.join(" | ")} |\n|---|${KEYS.map(() => "---").join("|")}|`);
grid.forEach(([name], i) => console.log(`| ${name} | ${KEYS.map((k) => fmt(mean(scores[i], k))).join(" | ")} |`));

// leave one conversation out, among the configurations with the pyramid on and a context
const held: Record<string, number>[] = [];
const picks: string[] = [];
conversations.forEach((_, c) => {
  let best = 2;
  for (let i = 3; i < grid.length; i++) if (objective(scores[i].filter((_, j) => j !== c)) > objective(scores[best].filter((_, j) => j !== c))) best = i;
  picks.push(grid[best][0]);
  held.push(scores[best][c]);
});
console.log(`\ncross-validated (each conversation scored with the configuration best on the other five): ${KEYS.map((k) => `${k} ${fmt(mean(held, k))}`).join(", ")}`);
console.log(`picks: ${picks.join("; ")}`);
console.log(`pyramid off on the same conversations: ${KEYS.map((k) => `${k} ${fmt(mean(scores[0], k))}`).join(", ")}`);
