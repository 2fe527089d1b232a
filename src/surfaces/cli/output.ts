/**
 * @module surfaces/cli/output
 * How the CLI speaks: exactly one JSON document on stdout with --json, human text otherwise, and every failure
 * as one line on stderr with exit code 2 (the caller's mistake) or 1 (ours).
 */
import { CommanderError, type Command } from "commander";
import { CascadeError, respelled, storeFailure } from "../../light.js";
import { io } from "./io.js";

export interface OutputMode {
  json: boolean;
}

export function emit(mode: OutputMode, value: unknown, human: () => string): void {
  io().stdout.write(mode.json ? JSON.stringify(value, null, 2) + "\n" : human() + "\n");
}

/** SDK option names whose flag is not their kebab-case form. */
const FLAG_ALIASES: Record<string, string> = { kinds: "kind", excludeKinds: "exclude-kind", weights: "weight", where: "filter", speakers: "speaker" };

/**
 * How the CLI spells an SDK field in an error: `asOf` → `--as-of`, when some command has that flag. One-word
 * fields (text, at, since) already read as their flag's word and are left as they are.
 */
export function flagSpelling(program: Command): (field: string) => string | undefined {
  const flags = new Set<string>();
  const walk = (cmd: Command) => {
    for (const o of cmd.options) if (o.long) flags.add(o.long);
    cmd.commands.forEach(walk);
  };
  walk(program);
  return (field) => {
    if (!/[A-Z]/.test(field) && !(field in FLAG_ALIASES)) return undefined;
    const flag = `--${FLAG_ALIASES[field] ?? field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
    return flags.has(flag) ? flag : undefined;
  };
}

/** Reports an error (its field named as `spell` says) and returns the exit code it deserves. */
export function reportError(thrown: unknown, mode: OutputMode, spell: (field: string) => string | undefined = () => undefined): number {
  const err = respelled(storeFailure(thrown) ?? thrown, spell);
  let code: string;
  let message: string;
  let exit: number;
  if (err instanceof CascadeError) {
    code = err.code;
    message = err.message;
    exit = err.isUsageError ? 2 : 1;
  } else if (err instanceof CommanderError) {
    code = "INVALID_INPUT";
    message = err.message.replace(/^error: /, "");
    exit = 2;
  } else {
    code = "INTERNAL";
    message = err instanceof Error ? err.message : String(err);
    exit = 1;
    if (io().env.CASCADE_DEBUG && err instanceof Error) io().stderr.write(`${err.stack}\n`);
  }
  io().stderr.write(`cascade: ${message}\n`);
  if (mode.json) io().stdout.write(JSON.stringify({ error: { code, message } }) + "\n");
  return exit;
}
