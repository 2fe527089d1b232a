/**
 * @module deferred
 * The SDK's asynchronous entry points that few callers use (a backup, a migration, a re-embedding, the benchmarks,
 * the cross-validation), loaded on their first call rather than with the front door: a `cascade stats` or an
 * application that only remembers and recalls does not read their modules. Each has the type of the function it
 * stands for, which stays where it is and is documented there.
 */
import type * as Backup from "./api/backup.js";
import type * as Migrate from "./api/migrate.js";
import type * as Reembed from "./api/reembed.js";
import type * as BenchRun from "./bench/run.js";
import type * as BenchPyramid from "./bench/pyramid.js";
import type * as BenchTopics from "./bench/topics.js";
import type * as BenchFilters from "./bench/filters.js";
import type * as CvCommand from "./eval/cv-command.js";

/** A consistent copy of a store, taken while it is open (api/backup.ts). */
export async function backupStore(...args: Parameters<typeof Backup.backupStore>): ReturnType<typeof Backup.backupStore> {
  return (await import("./api/backup.js")).backupStore(...args);
}

/** Copies every namespace of one store location into an empty one (api/migrate.ts). */
export async function migrateStore(...args: Parameters<typeof Migrate.migrateStore>): ReturnType<typeof Migrate.migrateStore> {
  return (await import("./api/migrate.js")).migrateStore(...args);
}

/** Copies one opened store into another through the Store port (api/migrate.ts). */
export async function copyStore(...args: Parameters<typeof Migrate.copyStore>): ReturnType<typeof Migrate.copyStore> {
  return (await import("./api/migrate.js")).copyStore(...args);
}

/** Moves a store to another embedder in place (api/reembed.ts). */
export async function reembedStore(...args: Parameters<typeof Reembed.reembedStore>): ReturnType<typeof Reembed.reembedStore> {
  return (await import("./api/reembed.js")).reembedStore(...args);
}

/** The ingest and search benchmark (bench/run.ts). */
export async function runBench(...args: Parameters<typeof BenchRun.runBench>): ReturnType<typeof BenchRun.runBench> {
  return (await import("./bench/run.js")).runBench(...args);
}

/** The summary pyramid's benchmark (bench/pyramid.ts). */
export async function runPyramidBench(...args: Parameters<typeof BenchPyramid.runPyramidBench>): ReturnType<typeof BenchPyramid.runPyramidBench> {
  return (await import("./bench/pyramid.js")).runPyramidBench(...args);
}

/** The topic tree's benchmark (bench/topics.ts). */
export async function runTopicBench(...args: Parameters<typeof BenchTopics.runTopicBench>): ReturnType<typeof BenchTopics.runTopicBench> {
  return (await import("./bench/topics.js")).runTopicBench(...args);
}

/** The filtered search's benchmark (bench/filters.ts). */
export async function runFilterBench(...args: Parameters<typeof BenchFilters.runFilterBench>): ReturnType<typeof BenchFilters.runFilterBench> {
  return (await import("./bench/filters.js")).runFilterBench(...args);
}

/** `cascade eval --cv`: cross-validation over a grid of settings (eval/cv-command.ts). */
export async function runCvCommand(...args: Parameters<typeof CvCommand.runCvCommand>): ReturnType<typeof CvCommand.runCvCommand> {
  return (await import("./eval/cv-command.js")).runCvCommand(...args);
}
