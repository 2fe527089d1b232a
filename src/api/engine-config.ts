/**
 * @module api/engine-config
 * An engine's configuration: what callers may give (EngineConfig, every field optional) and what the engine
 * runs on (ResolvedEngineConfig, every field set). `resolveEngineConfig` is the one place where the two meet:
 * it checks the data against the schema the config file is checked with, then merges each group over its
 * named defaults once.
 */
import type { GraphChannelOptions } from "../channels/graph.js";
import { defaultGraphChannel } from "../channels/graph.js";
import { defaultBm25, defaultDense, defaultLateInteraction, defaultSearchOptions, defaultTermPruning, type Bm25Options, type DenseOptions, type LateInteractionOptions, type SearchOptions } from "../config/defaults.js";
import { engineConfigSchema, searchDefaultsSchema } from "../config/engine-schema.js";
import { invalidInput } from "../errors.js";
import { offlineExtractor, type EntityExtractor } from "../entities/extract.js";
import { CueJudge } from "../graph/cue-judge.js";
import { defaultDetection, type DetectionOptions } from "../graph/detect.js";
import type { RevisionJudge } from "../ports/judge.js";
import type { Summarizer } from "../ports/summarizer.js";
import type { ChatOptions } from "../providers/chat.js";
import { defaultPyramid, type PyramidOptions } from "../pyramid/build.js";
import { defaultContext, type ContextOptions } from "../query/context.js";
import { defaultNeighbours, type NeighbourOptions } from "../query/neighbours.js";
import { defaultAgreement, type AgreementOptions } from "../fuse/agreement.js";
import { defaultLaterValues, type LaterValueOptions } from "../query/later-values.js";
import { defaultSpeakers, type SpeakerOptions } from "../query/speakers.js";
import type { TermPruning } from "../text/terms.js";
import { validateTimeZone } from "../time/windows.js";
import { defaultPlacement, type PlacementOptions } from "../topics/placement.js";
import { parseWith } from "../validate.js";
import type { FactExtractor } from "../ingest/fact-extractor.js";

export interface EngineConfig {
  /** Search defaults (weights, k, rrf k, channels, depth) for this engine; per-call options override them. */
  search?: Partial<Omit<SearchOptions, "weights" | "steps">> & { weights?: Partial<SearchOptions["weights"]>; steps?: Partial<SearchOptions["steps"]> };
  /** Revision detection on ingest (thresholds, on/off) and the judge that decides. */
  detection?: Partial<DetectionOptions>;
  judge?: RevisionJudge;
  /** Score factor for superseded memories in search (default 0.5; 1 marks them without demoting). */
  demotion?: number;
  /** When common words are left out of lexical lookups. */
  termPruning?: Partial<TermPruning>;
  /** The dense channel: query weighting and its relevance floor (config/defaults.ts). */
  dense?: Partial<DenseOptions>;
  /** Late-interaction candidate generation and weighting. */
  lateInteraction?: Partial<LateInteractionOptions>;
  /** The BM25 channel's work budget. */
  bm25?: Partial<Bm25Options>;
  /** The summary pyramid: on or off (default on), time zone, length bounds. `onIngest` is the old name of `enabled`. */
  pyramid?: Partial<Omit<PyramidOptions, "limits">> & { limits?: Partial<PyramidOptions["limits"]>; onIngest?: boolean };
  /** Writes the pyramid's summaries (default: the offline extractive summariser, made by the engine). */
  summarizer?: Summarizer;
  /** Which summaries a search returns as `context` (see query/context.ts). */
  context?: Partial<ContextOptions>;
  /** Automatic topic placement of memories added without a topic (`unsorted: true` files those that fit none under `unsorted`). */
  placement?: Partial<PlacementOptions>;
  /** Index each turn with the turn before it in its session (lexical channels only; default true). */
  conversationContext?: boolean;
  /** Weight of that turn's vector in the turn's own vector (default 0: vectors are the turn's text alone). */
  denseContext?: number;
  /** Entity extraction at ingest (default: on, offline) and the graph channel's walk. */
  entities?: { enabled?: boolean; extractor?: EntityExtractor; /** An OpenAI-compatible chat model as the extractor (see api/open.ts). */ chat?: ChatOptions };
  graph?: Partial<GraphChannelOptions>;
  /** Candidates next to other candidates in their session gain a share of their scores (query/neighbours.ts). */
  neighbours?: Partial<NeighbourOptions>;
  /** How far a channel the others do not back on a query is damped, when the search asks for `agreement`. */
  agreement?: Partial<AgreementOptions>;
  /** Candidates said by a person the query names gain a share of their scores (query/speakers.ts). */
  speakers?: Partial<SpeakerOptions>;
  /** A hit of the same speaker stating a later value of what the question asks ranks above the earlier (query/later-values.ts). */
  laterValues?: Partial<LaterValueOptions>;
  /** Fact extraction from chat messages (rememberMessages): off unless an extractor or a chat model is given. */
  facts?: { extractor?: FactExtractor; /** An OpenAI-compatible chat model as the extractor (see api/open.ts). */ chat?: ChatOptions };
}

export interface ResolvedEngineConfig {
  search: SearchOptions;
  detection: DetectionOptions;
  judge: RevisionJudge;
  demotion: number;
  termPruning: TermPruning;
  dense: DenseOptions;
  lateInteraction: LateInteractionOptions;
  bm25: Bm25Options;
  pyramid: PyramidOptions;
  /** Null: the engine makes the extractive summariser over its own embedder. */
  summarizer: Summarizer | null;
  context: ContextOptions;
  placement: PlacementOptions;
  conversationContext: boolean;
  denseContext: number;
  /** Null: no entity extraction at ingest. */
  extractor: EntityExtractor | null;
  graph: GraphChannelOptions;
  neighbours: NeighbourOptions;
  agreement: AgreementOptions;
  speakers: SpeakerOptions;
  laterValues: LaterValueOptions;
  /** Null: rememberMessages stores the messages only. */
  facts: FactExtractor | null;
}

/** A superseded memory keeps half its score: still visible beside its successor, never above it. */
const DEFAULT_DEMOTION = 0.5;

export function resolveEngineConfig(config: EngineConfig = {}): ResolvedEngineConfig {
  // the data is checked as the config file's is; objects that are not data are left out of the check
  const { judge, summarizer, search, entities, facts, ...data } = config;
  const { extractor, ...entityData } = entities ?? {};
  const { extractor: factExtractor, ...factData } = facts ?? {};
  parseWith(engineConfigSchema, { ...data, ...(entities ? { entities: entityData } : {}), ...(facts ? { facts: factData } : {}) }, "engine");
  if (search) parseWith(searchDefaultsSchema, search, "search");
  const demotion = config.demotion ?? DEFAULT_DEMOTION;
  if (!(demotion >= 0 && demotion <= 1)) throw invalidInput("demotion", "a factor between 0 and 1");
  const { onIngest, ...pyramid } = config.pyramid ?? {};
  const resolvedPyramid = { ...defaultPyramid, enabled: onIngest ?? defaultPyramid.enabled, ...pyramid, limits: { ...defaultPyramid.limits, ...pyramid.limits } };
  validateTimeZone("pyramid.zone", resolvedPyramid.zone);
  return {
    search: { ...defaultSearchOptions, ...search, weights: { ...defaultSearchOptions.weights, ...search?.weights }, steps: { ...defaultSearchOptions.steps, ...search?.steps } },
    detection: { ...defaultDetection, ...config.detection },
    judge: judge ?? new CueJudge(),
    demotion,
    termPruning: { ...defaultTermPruning, ...config.termPruning },
    dense: { ...defaultDense, ...config.dense },
    lateInteraction: { ...defaultLateInteraction, ...config.lateInteraction },
    bm25: { ...defaultBm25, ...config.bm25 },
    pyramid: resolvedPyramid,
    summarizer: summarizer ?? null,
    context: { ...defaultContext, ...config.context },
    placement: { ...defaultPlacement, ...config.placement },
    conversationContext: config.conversationContext ?? true,
    denseContext: config.denseContext ?? 0,
    extractor: entities?.enabled === false ? null : (extractor ?? offlineExtractor),
    graph: { ...defaultGraphChannel, ...config.graph },
    neighbours: { ...defaultNeighbours, ...config.neighbours },
    agreement: { ...defaultAgreement, ...config.agreement },
    speakers: { ...defaultSpeakers, ...config.speakers },
    laterValues: { ...defaultLaterValues, ...config.laterValues },
    facts: factExtractor ?? null,
  };
}
