/**
 * @module cascade/light
 * The SDK's second door, for a command that starts often and only reads: opening a store to read it
 * (openReader), the errors and the plain helpers a shell prints with. Everything here is also exported by
 * src/index.ts; this door exists because importing that one loads the whole engine, its schemas (zod) and its
 * write path, which a `cascade stats` does not use. Nothing exported here may import zod or the
 * write path: test/cli-start.test.ts checks what `stats`, `show` and `list` load.
 */
export { openReader, type StoreReader, type OpenReaderOptions } from "./api/reader.js";
export { defaultStorePath } from "./api/open-store.js";
export { configFilePath, CONFIG_FILE_NAME } from "./config/file-path.js";
export { CascadeError, respelled, storeFailure } from "./errors.js";
export { parseInstant, formatInstant } from "./time/iso.js";
export { countOf } from "./text/plural.js";
export { withSpeaker } from "./text/speaker.js";
export { CHILD_NOUN } from "./model/pyramid.js";
export type { ShownSentence } from "./model/pyramid.js";
export { sentenceLine, supersededMark } from "./query/summary-sentences.js";
export { STALE_SUMMARY_NOTE } from "./api/stale-summaries.js";
export type { ListJson, ListedMemory } from "./api/list-page.js";
export type { ListOptions } from "./api/list.js";
export type { FieldCondition } from "./model/filter.js";
// (a type only: the engine itself is opened through src/index.ts)
export type { Engine } from "./api/engine.js";
