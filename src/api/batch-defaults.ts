/**
 * @module api/batch-defaults
 * The default batch sizes of `migrateStore` and `reembedStore`, apart from them: the SDK's front door exports them
 * without loading the migration or the re-embedding (src/deferred.ts).
 */

/** Records copied per page, one transaction each, by `migrateStore`. */
export const DEFAULT_MIGRATE_BATCH = 500;

/** Chunks embedded per embedder call and kept per transaction: what a kill can lose at most. */
export const DEFAULT_REEMBED_BATCH = 256;
