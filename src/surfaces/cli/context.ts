/**
 * @module surfaces/cli/context
 * What every command shares: the global flags, the output mode, opening the engine for a command (`withEngine`,
 * settings.ts) and opening a store only to read it (`withReader`). Light on purpose: `stats`, `show` and `list`
 * load this and the SDK's light door, not the engine.
 */
import type { Command } from "commander";
import { configFilePath, defaultStorePath, openReader, parseInstant, type Engine, type StoreReader } from "../../light.js";
import { globalFlags } from "./global-flags.js";
import { io } from "./io.js";
import type { OutputMode } from "./output.js";

export { globalFlags, type GlobalFlags } from "./global-flags.js";

export type WithEngine = <T>(cmd: Command, fn: (engine: Engine) => Promise<T>, pathOverride?: string) => Promise<T>;
export type WithReader = <T>(cmd: Command, fn: (reader: StoreReader) => Promise<T>) => Promise<T>;

/** Handed to each command group's register function. */
export interface CliContext {
  withEngine: WithEngine;
  withReader: WithReader;
  mode: (cmd: Command) => OutputMode;
}

export function mode(cmd: Command): OutputMode {
  return { json: Boolean(globalFlags(cmd).json) };
}

/** Opens the engine for a command, runs `fn`, closes it (settings.ts, loaded with the SDK's front door on first use). */
export const withEngine: WithEngine = async (cmd, fn, pathOverride) => (await import("./settings.js")).withOpenEngine(cmd, fn, pathOverride);

/**
 * Opens the store only to read it when nothing but reading is asked (no config file; the SDK's openReader says
 * when the store itself needs an engine), else the engine as withEngine does: the same answers either way, and
 * the same settings (a flag, then $CASCADE_DB, then the default path; a config file takes the engine's way).
 */
export const withReader: WithReader = async (cmd, fn) => {
  const flags = globalFlags(cmd);
  if (configFilePath(flags.config) !== null) return withEngine(cmd, fn);
  const now = flags.now !== undefined ? parseInstant("--now", flags.now) : undefined;
  const reader = await openReader({ path: flags.db ?? (io().env.CASCADE_DB || undefined) ?? defaultStorePath(), namespace: flags.namespace, now });
  if (reader === null) return withEngine(cmd, fn);
  try {
    return await fn(reader);
  } finally {
    await reader.close();
  }
};
