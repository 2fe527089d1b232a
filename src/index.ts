/**
 * @module cascade
 * The public SDK. Surfaces (CLI, HTTP, MCP) import only from here.
 */
export { openMemory, defaultStorePath, defaultGloveEmbedder, type OpenMemoryOptions } from "./api/open.js";
export { Engine, type EnginePorts, type EngineConfig, type Remembered, type BatchResult, type BatchOptions, type PyramidNodeJson, type TopicJson } from "./api/engine.js";
export { ExtractiveSummarizer, type ExtractiveOptions } from "./pyramid/extractive.js";
export { ChatSummarizer } from "./pyramid/chat-summarizer.js";
export { defaultPyramid, nodeId, type BuildReport, type PyramidOptions } from "./pyramid/build.js";
export type { Summarizer, SummaryRequest, SummaryLimits } from "./ports/summarizer.js";
export type { SummarySentence, PyramidNode } from "./model/pyramid.js";
export { defaultPlacement, UNSORTED, type Placement, type PlacementOptions } from "./topics/placement.js";
export { isAncestor, isDescendant } from "./topics/path.js";
export { parseTimeExpressions, type ParsedTime, type TimeSpan } from "./time/expressions.js";
export { CascadeError, ERROR_CODES, type ErrorCode } from "./errors.js";
export { OpenAIEmbedder, type OpenAIEmbedderOptions } from "./embed/openai.js";
export { SifEmbedder } from "./embed/sif.js";
export { loadGloveTable } from "./embed/glove-cache.js";
export { SqliteStore } from "./backends/sqlite/store.js";
export { defaultSearchOptions, defaultWeights } from "./config/defaults.js";
export { fuse, rrfScore, type Fused } from "./fuse/rrf.js";
export { parseInstant, formatInstant } from "./time/iso.js";
export type { RecallOptions } from "./query/options.js";
export type { Embedder, TokenVectors } from "./ports/embedder.js";
export type { Store } from "./ports/store.js";
export { CHANNEL_NAMES } from "./model/types.js";
export type { ChannelName, Hit, Memory, MemoryInput, SearchResult, Ranked } from "./model/types.js";
export { readJsonlBatches, parseJsonlLine, requireFile, stoppedImport, type JsonlItem } from "./ingest/jsonl.js";
export type { ForgetOptions, Forgotten } from "./api/forgetting.js";
export { importKey } from "./ingest/dedupe.js";
export { readLocomoConversation, parseLocomoDate, type LocomoConversation, type LocomoQuestion } from "./ingest/locomo.js";
export { demoCorpus, demoQueries, DEMO_NOW } from "./demo/corpus.js";
export { loadConfigFile, type ConfigFile, CONFIG_FILE_NAME } from "./config/file.js";
export { runBench, type BenchOptions, type BenchReport } from "./bench/run.js";
export { runPyramidBench, type PyramidBenchReport } from "./bench/pyramid.js";
export { runTopicBench, type TopicBenchReport } from "./bench/topics.js";
export { evaluateLocomo, loadLocomo, type EvalConfig, type EvalReport } from "./eval/locomo-eval.js";
export { scoreQuestion, recallAt, ndcgAt, reciprocalRank, hitAt, type Metrics } from "./eval/metrics.js";
export type { EdgeJson, HistoryJson } from "./api/present.js";
export { defaultListLimits, type ListOptions, type ListJson, type ListedMemory } from "./api/list.js";
export { CueJudge, judgeRevision } from "./graph/cue-judge.js";
export type { RevisionJudge, Verdict } from "./ports/judge.js";
export { EDGE_TYPES, type Edge, type EdgeType, type Suggestion } from "./model/graph.js";
export { ChatJudge, type ChatJudgeOptions } from "./graph/chat-judge.js";
export { MemorySpace, DEFAULT_NAMESPACE, validateNamespace, namespacePath, defaultSpaceLimits, type SpaceLimits, type Lease } from "./api/space.js";
export { parseWith } from "./validate.js";
