/**
 * @module eval/locomo-eval
 * LoCoMo retrieval evaluation: for each conversation a fresh in-memory store holds every turn; every question
 * with evidence is a query; a hit is relevant when its turn (`dia_id`) is in the question's evidence.
 * Measured per configuration: all channels fused, each channel alone, and each leave-one-out.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { Engine, type EngineConfig } from "../api/engine.js";
import type { StoreMaker } from "../ports/store.js";
import { CascadeError } from "../errors.js";
import { readLocomoConversation, type LocomoConversation } from "../ingest/locomo.js";
import { CHANNEL_NAMES, type ChannelName } from "../model/types.js";
import type { Embedder, TokenVectors } from "../ports/embedder.js";
import type { RecallOptions } from "../query/options.js";
import { MetricsAccumulator, scoreQuestion, type Metrics, type RankedItem } from "./metrics.js";
import type { Hit } from "../model/types.js";
import type { SummarySentence } from "../model/pyramid.js";
import { BudgetAccumulator, budgetK, evidenceAt, readingOrder } from "./budget.js";

export interface EvalConfig {
  /** Options for the default configuration (weights, rrfK, depth...). */
  search?: Omit<RecallOptions, "channels" | "k">;
  channels?: ChannelName[];
  /** Engine configuration (search defaults, late interaction). */
  engine?: EngineConfig;
  /** Also measure each channel alone and each leave-one-out (default true). */
  ablation?: boolean;
  /** The summary pyramid on (default, as in the engine) or off (`--no-pyramid`). */
  pyramid?: boolean;
  /** Word budgets for evidence@N (see eval/budget.ts); none by default. */
  budgets?: number[];
  /**
   * Count a summary hit as retrieving the turns its sentences were taken from (default false: a summary
   * retrieves nothing and only takes a place in the top k).
   */
  summaryCredit?: boolean;
}

export interface EvalReport {
  conversations: number;
  questions: number;
  /** The metrics of the default configuration, plus `evidence@N` for each budget asked for. */
  overall: Metrics & Record<string, number>;
  by_category: Record<string, Metrics & Record<string, number>>;
  by_channel: Record<string, Metrics>;
  took_s: number;
}

export function loadLocomo(path: string): LocomoConversation[] {
  let files: string[];
  try {
    files = statSync(path).isDirectory()
      ? readdirSync(path).filter((f) => f.endsWith(".json")).sort().map((f) => join(path, f))
      : [path];
  } catch {
    throw new CascadeError("INVALID_INPUT", `eval: cannot read ${path}`, { field: "path" });
  }
  if (files.length === 0) throw new CascadeError("INVALID_INPUT", `eval: no .json files in ${path}`, { field: "path" });
  return files.map((f) => {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(f, "utf8"));
    } catch (err) {
      throw new CascadeError("INVALID_INPUT", `eval: ${f} is not valid JSON (${(err as Error).message})`, { field: "path" });
    }
    return readLocomoConversation(json, basename(f, ".json"));
  });
}

/** The configurations measured: default, then each channel alone ("bm25"), then each left out ("-bm25"). */
export function ablationConfigs(channels: ChannelName[], ablation: boolean): [string, ChannelName[]][] {
  const configs: [string, ChannelName[]][] = [["overall", channels]];
  if (!ablation) return configs;
  for (const c of channels) configs.push([c, [c]]);
  for (const c of channels) configs.push([`-${c}`, channels.filter((x) => x !== c)]);
  return configs;
}

export async function evaluateLocomo(
  conversations: LocomoConversation[],
  models: { embedder: Embedder; tokens: TokenVectors; stores: StoreMaker },
  config: EvalConfig = {},
  onProgress?: (done: number, total: number) => void,
): Promise<EvalReport> {
  const started = performance.now();
  const channels = config.channels ?? [...CHANNEL_NAMES];
  const configs = ablationConfigs(channels, config.ablation ?? true);
  const totals = new Map(configs.map(([name]) => [name, new MetricsAccumulator()]));
  const byCategory = new Map<string, MetricsAccumulator>();
  const total = conversations.reduce((n, c) => n + c.questions.filter((q) => q.evidence.length > 0).length, 0);
  let done = 0;
  const budgets = [...new Set(config.budgets ?? [])].sort((a, b) => a - b);
  const evidence = new BudgetAccumulator();
  const engineConfig: EngineConfig = { ...config.engine, pyramid: { ...config.engine?.pyramid, enabled: config.pyramid ?? config.engine?.pyramid?.enabled ?? true } };
  for (const conv of conversations) {
    const store = await models.stores(conv.name);
    const engine = await Engine.create({ store, embedder: models.embedder, tokens: models.tokens }, engineConfig);
    // the pyramid is maintained as the turns arrive (one refresh after the batch), as for any writer
    const imported = await engine.rememberMany(conv.turns.map((t) => t.input));
    const diaOf = new Map<string, string>();
    imported.ids.forEach((id, i) => id && diaOf.set(id, conv.turns[i].diaId));
    // questions are asked after the conversation: "now" is the day after its last turn, for time expressions
    const now = new Date(Math.max(...conv.turns.map((t) => Date.parse(t.input.at))) + 86_400_000).toISOString();
    const itemOf = (h: Hit): RankedItem => {
      if (h.kind !== "summary") return diaOf.get(h.id)!;
      if (!config.summaryCredit) return `summary:${h.id}`;
      const sentences = (summaries.get(h.id) ?? []) as SummarySentence[];
      return [...new Set(sentences.flatMap((s) => s.sources).map((id) => diaOf.get(id)).filter((d): d is string => d !== undefined))];
    };
    const summaries = new Map<string, unknown>();
    if (config.summaryCredit || budgets.length) {
      for (const n of (await engine.pyramid()).nodes) summaries.set(n.id, (await engine.show(n.id)).metadata.sentences);
    }
    for (const q of conv.questions) {
      if (q.evidence.length === 0) continue;
      const gold = new Set(q.evidence);
      for (const [name, set] of configs) {
        const r = await engine.recall(q.question, { now, ...config.search, channels: set, k: 10 });
        const metrics = scoreQuestion(r.hits.map(itemOf), gold);
        totals.get(name)!.add(metrics);
        if (name === "overall") {
          const cat = String(q.category);
          if (!byCategory.has(cat)) byCategory.set(cat, new MetricsAccumulator());
          byCategory.get(cat)!.add(metrics);
        }
      }
      if (budgets.length) {
        const r = await engine.recall(q.question, { now, ...config.search, channels, k: budgetK(budgets) });
        const pieces = readingOrder(r, (id) => (summaries.get(id) ?? []) as SummarySentence[]);
        const values = evidenceAt(pieces, budgets, (id) => diaOf.get(id), gold);
        evidence.add("overall", values);
        evidence.add(String(q.category), values);
      }
      onProgress?.(++done, total);
    }
    await engine.close();
  }
  const byChannel: Record<string, Metrics> = {};
  for (const [name] of configs.slice(1)) byChannel[name] = totals.get(name)!.mean();
  return {
    conversations: conversations.length,
    questions: totals.get("overall")!.count,
    overall: { ...totals.get("overall")!.mean(), ...evidence.mean("overall") },
    by_category: Object.fromEntries([...byCategory.entries()].sort().map(([k, v]) => [k, { ...v.mean(), ...evidence.mean(k) }])),
    by_channel: byChannel,
    took_s: Math.round((performance.now() - started) / 100) / 10,
  };
}
