/**
 * @module surfaces/cli/settings
 * The one merge of flags over the environment over the config file over the defaults (`settings`), and opening an
 * engine for a command (`openEngine`). Loaded with the SDK's front door, by the commands that use the engine (a
 * command that only reads a store may not: context.ts).
 */
import type { Command } from "commander";
import { defaultStorePath, loadConfigFile, openMemory, parseInstant, type ConfigFile, type Engine, type EngineConfig } from "../../index.js";
import { globalFlags, type GlobalFlags } from "./global-flags.js";
import { io } from "./io.js";
import { progressBar } from "./progress.js";

/** Flags over the environment over the config file over the defaults, merged once for every command that opens a store. */
export function settings(flags: GlobalFlags): { path: string; now: number | undefined; engine: EngineConfig; file: ConfigFile } {
  const file = loadConfigFile(flags.config);
  return {
    // flag, then $CASCADE_DB, then the file's `db`, then the default (docs/CONFIGURATION.md): an environment
    // variable is set for this run, the file for every run in the folder
    path: flags.db ?? (io().env.CASCADE_DB || undefined) ?? file.db ?? defaultStorePath(),
    now: flags.now !== undefined ? parseInstant("--now", flags.now) : undefined,
    engine: { search: file.search, ...file.engine },
    file,
  };
}

/**
 * Only commands that add something create a store or a namespace that does not exist yet; any other command (a
 * read, or a change to what is there) answers NOT_FOUND and leaves no file or folder behind.
 */
const CREATING_COMMANDS = new Set(["add", "import", "mcp", "demo", "create", "describe"]);

/** Opens the engine a command works with (its settings as above), runs `fn`, closes it. */
export async function withOpenEngine<T>(cmd: Command, fn: (engine: Engine) => Promise<T>, pathOverride?: string): Promise<T> {
  const flags = globalFlags(cmd);
  const s = settings(flags);
  // a store from before the pyramid was kept on every write is brought up to date on open, with a bar on a terminal
  const bar = progressBar("bringing the summary pyramid up to date", "steps");
  const engine = await openMemory({
    ...s.engine,
    path: pathOverride ?? s.path,
    namespace: flags.namespace,
    create: CREATING_COMMANDS.has(cmd.name()),
    now: s.now,
    onPyramidCatchUp: (d, t) => bar.update(d, t),
  }).finally(() => bar.stop());
  try {
    return await fn(engine);
  } finally {
    await engine.close();
  }
}
