/**
 * @module eval/cv
 * Leave-one-conversation-out cross-validation (or leave-one-dataset-out, when several datasets are given).
 * A grid names the candidate settings a default was
 * chosen from (weights, thresholds, features). Every setting is scored on every question once; then, for each
 * conversation (or dataset) in turn, the setting with the best mean Recall@10 on the OTHER ones is chosen and scored
 * on the held-out one. The cross-validated figure is the mean of those held-out scores: what the tuning is worth
 * on a conversation it never saw. The in-sample figures (the default's, and the best setting's on all six) are
 * reported beside it, so the gap between them shows how much a choice was fitted to these six; each fold also
 * reports the held-out unit's own in-sample figures beside its cross-validated one.
 *
 * The same is done for each channel alone (chosen by that channel's own Recall@10), and per question category.
 * Settings that only change search share one ingest per conversation; settings that change what is indexed
 * (embedder, conversational context) get their own store.
 */
import { Engine, type EngineConfig } from "../api/engine.js";
import type { StoreMaker } from "../ports/store.js";
import { askedAfter, scored, type EvalConversation } from "./dataset.js";
import { CHANNEL_NAMES, type ChannelName, type Hit } from "../model/types.js";
import type { Embedder, TokenVectors } from "../ports/embedder.js";
import type { RecallOptions } from "../query/options.js";
import { METRIC_NAMES, scoreQuestion, type Metrics } from "./metrics.js";

/** One candidate setting: engine configuration, search options and (optionally) another embedder. */
export interface CvSetting {
  name: string;
  engine?: EngineConfig;
  search?: Omit<RecallOptions, "channels" | "k">;
  /** Models for this setting (default: the ones passed to crossValidate); their id decides store sharing. */
  models?: { embedder: Embedder; tokens: TokenVectors };
}

export interface CvOptions {
  channels?: ChannelName[];
  /** Also score each channel alone (default true). */
  ablation?: boolean;
  /** The metric settings are chosen by (default recall@10). */
  selectBy?: keyof Metrics;
  /** What a fold leaves out: one conversation (default) or one dataset (conversations' `dataset`). */
  foldBy?: "conversation" | "dataset";
  onProgress?: (done: number, total: number) => void;
}

export interface CvFold {
  held_out: string;
  questions: number;
  /** The setting chosen on the other conversations, and its score there and on the held-out one. */
  chosen: string;
  train: number;
  test: Metrics;
  /** In-sample on the held-out unit: the default's score, and the setting best on it (chosen on it). */
  default: Metrics;
  best_in_sample: { setting: string; metrics: Metrics };
}

export interface CvFigures {
  /** The first setting of the grid (the shipped default), scored on all conversations. */
  default: Metrics;
  /** The setting best on all conversations, and its score there (optimistic: chosen on the test data). */
  best_in_sample: { setting: string; metrics: Metrics };
  /** Leave-one-conversation-out: each conversation scored with the setting chosen on the others. */
  cross_validated: Metrics;
  folds: CvFold[];
}

export interface CvReport {
  /** What each fold left out. */
  fold_by: "conversation" | "dataset";
  conversations: number;
  questions: number;
  settings: string[];
  select_by: keyof Metrics;
  overall: CvFigures;
  by_category: Record<string, { default: Metrics; cross_validated: Metrics }>;
  by_channel: Record<string, CvFigures>;
  /** Every setting's in-sample score, all channels fused (and each channel alone). */
  by_setting: Record<string, Record<string, Metrics>>;
  took_s: number;
}

/** Per-question metrics: scores[config][setting][question]. */
type ScoreTable = Map<string, Metrics[][]>;

export interface QuestionInfo {
  /** The index of its fold's unit (a conversation, or a dataset). */
  group: number;
  category: string;
}

function mean(list: Metrics[]): Metrics {
  const out = { "recall@5": 0, "recall@10": 0, "hit@10": 0, "ndcg@10": 0, mrr: 0 } as Metrics;
  if (list.length === 0) return out;
  for (const m of list) for (const k of METRIC_NAMES) out[k] += m[k];
  for (const k of METRIC_NAMES) out[k] = Math.round((out[k] / list.length) * 10000) / 10000;
  return out;
}

/** Engine options that change what is indexed: settings that differ in them cannot share a store. */
const INGEST_OPTIONS = ["conversationContext", "denseContext", "indexExpansion"] as const;

/** Store-sharing key: settings with the same models and indexing options can search one ingest. */
function ingestKey(s: CvSetting, fallback: Embedder): string {
  const engine = (s.engine ?? {}) as Record<string, unknown>;
  return JSON.stringify([s.models?.embedder.id ?? fallback.id, ...INGEST_OPTIONS.map((o) => engine[o] ?? null)]);
}

/** Scores every setting on every question, for all channels fused and for each channel alone. */
async function scoreAll(
  conversations: EvalConversation[],
  groupOf: (c: number) => number,
  models: { embedder: Embedder; tokens: TokenVectors; stores: StoreMaker },
  settings: CvSetting[],
  channels: ChannelName[],
  ablation: boolean,
  onProgress?: (done: number, total: number) => void,
): Promise<{ table: ScoreTable; questions: QuestionInfo[] }> {
  const configs: [string, ChannelName[]][] = [["overall", channels]];
  if (ablation) for (const c of channels) configs.push([c, [c]]);
  const table: ScoreTable = new Map(configs.map(([name]) => [name, settings.map(() => [])]));
  const questions: QuestionInfo[] = [];
  const total = conversations.length * settings.length;
  let done = 0;
  for (const [ci, conv] of conversations.entries()) {
    const asked = scored(conv);
    for (const q of asked) questions.push({ group: groupOf(ci), category: String(q.category) });
    const now = askedAfter(conv);
    const groups = new Map<string, number[]>();
    settings.forEach((s, i) => {
      const key = ingestKey(s, models.embedder);
      groups.set(key, [...(groups.get(key) ?? []), i]);
    });
    for (const members of groups.values()) {
      const store = await models.stores(conv.name);
      const first = settings[members[0]];
      const m = first.models ?? models;
      const loader = await Engine.create({ store, embedder: m.embedder, tokens: m.tokens }, first.engine);
      const imported = await loader.rememberMany(conv.turns.map((t) => t.input));
      // the refresh the import scheduled runs on the loader's next read; the settings search through engines of
      // their own, which would find no summaries: build them now, so the default scores what `eval` scores
      await loader.settlePyramid();
      const itemIdOf = new Map<string, string>();
      imported.ids.forEach((id, i) => id && itemIdOf.set(id, conv.turns[i].id));
      const itemOf = (h: Hit) => itemIdOf.get(h.id) ?? `other:${h.id}`;
      for (const si of members) {
        const s = settings[si];
        const engine = await Engine.create({ store, ...(s.models ?? models) }, s.engine);
        for (const q of asked) {
          const gold = new Set(q.evidence);
          for (const [name, set] of configs) {
            const r = await engine.recall(q.question, { now: q.now ?? now, ...s.search, channels: set, k: 10 });
            table.get(name)![si].push(scoreQuestion(r.hits.map(itemOf), gold));
          }
        }
        onProgress?.(++done, total);
      }
      await loader.close();
    }
  }
  return { table, questions };
}

/** Chooses a setting on all groups (conversations or datasets) but one and scores it on that one, for each in turn. */
export function leaveOneOut(
  scores: Metrics[][],
  questions: QuestionInfo[],
  names: string[],
  groups: string[],
  selectBy: keyof Metrics,
): CvFigures {
  const meanOf = (s: number, keep: (q: QuestionInfo) => boolean) => {
    let sum = 0;
    let n = 0;
    questions.forEach((q, i) => {
      if (keep(q)) {
        sum += scores[s][i][selectBy];
        n++;
      }
    });
    return n ? sum / n : 0;
  };
  const best = (keep: (q: QuestionInfo) => boolean) => {
    let chosen = 0;
    let value = -Infinity;
    // ties go to the earlier setting: the default comes first, so a change must earn its place
    names.forEach((_, s) => {
      const v = meanOf(s, keep);
      if (v > value + 1e-12) {
        value = v;
        chosen = s;
      }
    });
    return { chosen, value };
  };
  const heldOutScores: Metrics[] = [];
  const on = (s: number, g: number) => questions.flatMap((q, i) => (q.group === g ? [scores[s][i]] : []));
  const folds: CvFold[] = groups.map((name, g) => {
    const { chosen, value } = best((q) => q.group !== g);
    const test = on(chosen, g);
    heldOutScores.push(...test);
    const own = best((q) => q.group === g).chosen;
    return {
      held_out: name,
      questions: test.length,
      chosen: names[chosen],
      train: Math.round(value * 10000) / 10000,
      test: mean(test),
      default: mean(on(0, g)),
      best_in_sample: { setting: names[own], metrics: mean(on(own, g)) },
    };
  });
  const all = best(() => true);
  return {
    default: mean(scores[0]),
    best_in_sample: { setting: names[all.chosen], metrics: mean(scores[all.chosen]) },
    cross_validated: mean(heldOutScores),
    folds,
  };
}

/** Leave-one-conversation-out (or -dataset-out) over a grid of settings; the first setting is the default. */
export async function crossValidate(
  conversations: EvalConversation[],
  models: { embedder: Embedder; tokens: TokenVectors; stores: StoreMaker },
  settings: CvSetting[],
  options: CvOptions = {},
): Promise<CvReport> {
  const started = performance.now();
  if (settings.length === 0) throw new Error("crossValidate: the grid is empty");
  const channels = options.channels ?? [...CHANNEL_NAMES];
  const selectBy = options.selectBy ?? "recall@10";
  const names = settings.map((s) => s.name);
  const foldBy = options.foldBy ?? "conversation";
  const groups = foldBy === "dataset" ? [...new Set(conversations.map((c) => c.dataset ?? "(none)"))] : conversations.map((c) => c.name);
  const groupOf = (c: number) => (foldBy === "dataset" ? groups.indexOf(conversations[c].dataset ?? "(none)") : c);
  const { table, questions } = await scoreAll(conversations, groupOf, models, settings, channels, options.ablation ?? true, options.onProgress);
  const overall = leaveOneOut(table.get("overall")!, questions, names, groups, selectBy);

  // per category: the held-out choices of the overall folds, read by category
  const chosenFor = overall.folds.map((f) => names.indexOf(f.chosen));
  const byCategory: CvReport["by_category"] = {};
  for (const cat of [...new Set(questions.map((q) => q.category))].sort()) {
    const idx = questions.flatMap((q, i) => (q.category === cat ? [i] : []));
    const scores = table.get("overall")!;
    byCategory[cat] = {
      default: mean(idx.map((i) => scores[0][i])),
      cross_validated: mean(idx.map((i) => scores[chosenFor[questions[i].group]][i])),
    };
  }
  const byChannel: Record<string, CvFigures> = {};
  for (const [name, scores] of table) if (name !== "overall") byChannel[name] = leaveOneOut(scores, questions, names, groups, selectBy);
  const bySetting: CvReport["by_setting"] = {};
  names.forEach((n, s) => {
    bySetting[n] = Object.fromEntries([...table].map(([config, scores]) => [config, mean(scores[s])]));
  });
  return {
    fold_by: foldBy,
    conversations: conversations.length,
    questions: questions.length,
    settings: names,
    select_by: selectBy,
    overall,
    by_category: byCategory,
    by_channel: byChannel,
    by_setting: bySetting,
    took_s: Math.round((performance.now() - started) / 100) / 10,
  };
}
