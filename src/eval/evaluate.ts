/**
 * @module eval/evaluate
 * Retrieval evaluation of any dataset a reader (eval/readers/*) turns into conversations: for each conversation a
 * fresh store holds every item; every question with evidence is a query; a hit is relevant when its item is in the
 * question's evidence. Measured per configuration: all channels fused, each channel alone, and each leave-one-out.
 * Questions without evidence (abstention) are counted, not scored. Knowledge updates also report `update_first`
 * (the replacing evidence ranks above the replaced); datasets with gold sessions also report session-level scores.
 */
import { Engine, type EngineConfig } from "../api/engine.js";
import type { StoreMaker } from "../ports/store.js";
import { CHANNEL_NAMES, type ChannelName } from "../model/types.js";
import type { Embedder, TokenVectors } from "../ports/embedder.js";
import type { RecallOptions } from "../query/options.js";
import { MetricsAccumulator, scoreQuestion, type Metrics, type RankedItem } from "./metrics.js";
import type { Hit } from "../model/types.js";
import type { SummarySentence } from "../model/pyramid.js";
import { BudgetAccumulator, budgetK, evidenceAt, readingOrder } from "./budget.js";
import { askedAfter, scored, type EvalConversation, type EvalQuestion } from "./dataset.js";

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
  /** The dataset's name as the command was given it (locomo, beam, ...). */
  dataset: string;
  conversations: number;
  /** Questions scored (those with evidence). */
  questions: number;
  /** Questions without evidence (abstention): counted, not scored. */
  without_evidence: number;
  /** The metrics of the default configuration, plus `evidence@N` for each budget and `update_first` when measured. */
  overall: Metrics & Record<string, number>;
  by_category: Record<string, Metrics & Record<string, number>>;
  by_channel: Record<string, Metrics>;
  /** Session-level metrics (a hit stands for its session), when the dataset names gold sessions. */
  sessions?: Metrics;
  /**
   * Change detection on the updates the dataset labels (a question naming the original and the updated message):
   * how many are linked by a supersedes or refines edge from an updated message to an original one, beside every
   * edge drawn, so recall reads against how many edges it took.
   */
  changes?: { labelled: number; linked: number; recall: number; edges: number };
  took_s: number;
}

/** The configurations measured: default, then each channel alone ("bm25"), then each left out ("-bm25"). */
export function ablationConfigs(channels: ChannelName[], ablation: boolean): [string, ChannelName[]][] {
  const configs: [string, ChannelName[]][] = [["overall", channels]];
  if (!ablation) return configs;
  for (const c of channels) configs.push([c, [c]]);
  for (const c of channels) configs.push([`-${c}`, channels.filter((x) => x !== c)]);
  return configs;
}

/**
 * 1 when an item of the updated evidence ranks above every item of the original in the first 10 results
 * (and is there at all), else 0: what an agent reads first should be what is true now. Null when one message is
 * both the original and the update (two of BEAM chats 1–10's twenty): no order can put it above itself.
 */
export function updateFirst(ranked: RankedItem[], update: NonNullable<EvalQuestion["update"]>): number | null {
  if (update.updated.some((id) => update.original.includes(id))) return null;
  const rankOf = (ids: string[]) => {
    const gold = new Set(ids);
    const i = ranked.slice(0, 10).findIndex((r) => (typeof r === "string" ? [r] : r).some((x) => gold.has(x)));
    return i < 0 ? Infinity : i;
  };
  const updated = rankOf(update.updated);
  return updated < Infinity && updated < rankOf(update.original) ? 1 : 0;
}

/** Running shares (update_first) per category and overall. */
class ShareAccumulator {
  private readonly sums = new Map<string, [number, number]>();
  add(key: string, value: number): void {
    const [s, n] = this.sums.get(key) ?? [0, 0];
    this.sums.set(key, [s + value, n + 1]);
  }
  mean(key: string, name: string): Record<string, number> {
    const got = this.sums.get(key);
    return got ? { [name]: Math.round((got[0] / got[1]) * 10000) / 10000 } : {};
  }
}

export async function evaluate(
  dataset: string,
  conversations: EvalConversation[],
  models: { embedder: Embedder; tokens: TokenVectors; stores: StoreMaker },
  config: EvalConfig = {},
  onProgress?: (done: number, total: number) => void,
): Promise<EvalReport> {
  const started = performance.now();
  const channels = config.channels ?? [...CHANNEL_NAMES];
  const configs = ablationConfigs(channels, config.ablation ?? true);
  const totals = new Map(configs.map(([name]) => [name, new MetricsAccumulator()]));
  const byCategory = new Map<string, MetricsAccumulator>();
  const sessionLevel = new MetricsAccumulator();
  const updates = new ShareAccumulator();
  const changes = { labelled: 0, linked: 0, edges: 0 };
  const total = conversations.reduce((n, c) => n + scored(c).length, 0);
  let done = 0;
  const budgets = [...new Set(config.budgets ?? [])].sort((a, b) => a - b);
  const evidence = new BudgetAccumulator();
  const engineConfig: EngineConfig = { ...config.engine, pyramid: { ...config.engine?.pyramid, enabled: config.pyramid ?? config.engine?.pyramid?.enabled ?? true } };
  for (const conv of conversations) {
    const store = await models.stores(conv.name);
    const engine = await Engine.create({ store, embedder: models.embedder, tokens: models.tokens }, engineConfig);
    // the pyramid is maintained as the turns arrive (one refresh after the batch), as for any writer; a search
    // does not wait for that refresh, so the questions are asked once it has ended (the summaries are scored too)
    const imported = await engine.rememberMany(conv.turns.map((t) => t.input));
    await engine.settlePyramid();
    const itemIdOf = new Map<string, string>();
    const sessionOfItem = new Map(conv.turns.map((t) => [t.id, t.input.session ?? ""]));
    imported.ids.forEach((id, i) => id && itemIdOf.set(id, conv.turns[i].id));
    const asked = askedAfter(conv);
    await countChanges(engine, conv, itemIdOf, changes);
    const summaries = new Map<string, unknown>();
    const itemOf = (h: Hit): RankedItem => {
      if (h.kind !== "summary") return itemIdOf.get(h.id) ?? `other:${h.id}`;
      if (!config.summaryCredit) return `summary:${h.id}`;
      const sentences = (summaries.get(h.id) ?? []) as SummarySentence[];
      return [...new Set(sentences.flatMap((s) => s.sources).map((id) => itemIdOf.get(id)).filter((d): d is string => d !== undefined))];
    };
    if (config.summaryCredit || budgets.length) {
      for (const n of (await engine.pyramid()).nodes) summaries.set(n.id, (await engine.show(n.id)).metadata.sentences);
    }
    for (const q of scored(conv)) {
      const gold = new Set(q.evidence);
      const now = q.now ?? asked;
      const cat = String(q.category);
      for (const [name, set] of configs) {
        const r = await engine.recall(q.question, { now, ...config.search, channels: set, k: 10 });
        const ranked = r.hits.map(itemOf);
        const metrics = scoreQuestion(ranked, gold);
        totals.get(name)!.add(metrics);
        if (name !== "overall") continue;
        if (!byCategory.has(cat)) byCategory.set(cat, new MetricsAccumulator());
        byCategory.get(cat)!.add(metrics);
        if (q.update) {
          const first = updateFirst(ranked, q.update);
          if (first !== null) {
            updates.add("overall", first);
            updates.add(cat, first);
          }
        }
        if (q.sessions?.length) {
          const sessions = ranked.map((r) => (typeof r === "string" ? [r] : r).map((x) => sessionOfItem.get(x) ?? `other:${x}`));
          sessionLevel.add(scoreQuestion(sessions, new Set(q.sessions)));
        }
      }
      if (budgets.length) {
        const r = await engine.recall(q.question, { now, ...config.search, channels, k: budgetK(budgets) });
        const pieces = readingOrder(r, (id) => (summaries.get(id) ?? []) as SummarySentence[]);
        const values = evidenceAt(pieces, budgets, (id) => itemIdOf.get(id), gold);
        evidence.add("overall", values);
        evidence.add(cat, values);
      }
      onProgress?.(++done, total);
    }
    await engine.close();
  }
  const byChannel: Record<string, Metrics> = {};
  for (const [name] of configs.slice(1)) byChannel[name] = totals.get(name)!.mean();
  const extras = (key: string) => ({ ...evidence.mean(key), ...updates.mean(key, "update_first") });
  return {
    dataset,
    conversations: conversations.length,
    questions: totals.get("overall")!.count,
    without_evidence: conversations.reduce((n, c) => n + c.questions.length - scored(c).length, 0),
    overall: { ...totals.get("overall")!.mean(), ...extras("overall") },
    by_category: Object.fromEntries([...byCategory.entries()].sort().map(([k, v]) => [k, { ...v.mean(), ...extras(k) }])),
    by_channel: byChannel,
    ...(sessionLevel.count ? { sessions: sessionLevel.mean() } : {}),
    ...(changes.labelled ? { changes: { ...changes, recall: Math.round((changes.linked / changes.labelled) * 10_000) / 10_000 } } : {}),
    took_s: Math.round((performance.now() - started) / 100) / 10,
  };
}

/**
 * Adds a conversation's labelled updates and the edges detection drew to `into`. An update is linked when an edge
 * (supersedes or refines, not retracted) goes from one of its updated messages to one of its original ones; the
 * same pair named by two questions counts once.
 */
async function countChanges(engine: Engine, conv: EvalConversation, itemIdOf: Map<string, string>, into: { labelled: number; linked: number; edges: number }): Promise<void> {
  const labelled = new Map<string, { original: string[]; updated: string[] }>();
  for (const q of conv.questions) {
    if (q.update && !q.update.updated.some((id) => q.update!.original.includes(id))) labelled.set(`${[...q.update.original].sort()}>${[...q.update.updated].sort()}`, q.update);
  }
  if (labelled.size === 0) return;
  const edges: { from: string; to: string }[] = [];
  let cursor: string | undefined;
  do {
    const page = await engine.list({ limit: 1000, ...(cursor ? { cursor } : {}) });
    edges.push(...page.edges.filter((e) => (e.type === "supersedes" || e.type === "refines") && e.retracted_at === null).map((e) => ({ from: itemIdOf.get(e.from) ?? "", to: itemIdOf.get(e.to) ?? "" })));
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  into.labelled += labelled.size;
  into.edges += new Set(edges.map((e) => `${e.from}>${e.to}`)).size;
  for (const u of labelled.values()) if (edges.some((e) => u.updated.includes(e.from) && u.original.includes(e.to))) into.linked++;
}