/**
 * @module surfaces/cli/flags
 * Parsers for flag values: each checks only the form (an integer, a number, NAME=W) and names the flag in its
 * one-line error; the engine validates meaning.
 */
import { InvalidArgumentError } from "commander";
import { CHANNEL_NAMES, STEP_NAMES, isPostgresUrl, type PostgresUrl } from "../../index.js";

export function integer(name: string, min: number, max = Number.MAX_SAFE_INTEGER) {
  return (value: string) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max) {
      const range = max === Number.MAX_SAFE_INTEGER ? `≥ ${min}` : `from ${min} to ${max}`;
      throw new InvalidArgumentError(`${name} must be an integer ${range}, got ${JSON.stringify(value)}`);
    }
    return n;
  };
}

export function number(name: string) {
  return (value: string) => {
    const n = Number(value);
    if (value.trim() === "" || !Number.isFinite(n)) throw new InvalidArgumentError(`${name} must be a number, got ${JSON.stringify(value)}`);
    return n;
  };
}

/** A repeatable flag's values, in order. */
export const collect = (value: string, previous: string[] = []) => [...previous, value];

/**
 * A repeatable flag of read-time step names (`--skip-step echoes,coverage`): each name checked here, so that the
 * error names the flag typed, in the words the SDK uses for `steps` ("unknown step …: a step is one of …").
 */
export function stepNames(flag: string) {
  return (value: string, previous: string[] = []) => {
    for (const name of value.split(",").map((v) => v.trim()).filter(Boolean)) {
      if (!(STEP_NAMES as readonly string[]).includes(name)) throw new InvalidArgumentError(`${flag}: unknown step ${JSON.stringify(name)}: a step is one of ${STEP_NAMES.join(", ")}`);
    }
    return [...previous, value];
  };
}

export function parseWeight(value: string, previous: Record<string, number> = {}): Record<string, number> {
  const m = /^([a-z0-9_]+)=(.+)$/i.exec(value);
  if (!m) throw new InvalidArgumentError(`--weight takes NAME=W (e.g. bm25=1.5), got ${JSON.stringify(value)}`);
  if (!(CHANNEL_NAMES as readonly string[]).includes(m[1])) {
    throw new InvalidArgumentError(`--weight: unknown channel ${JSON.stringify(m[1])}; channels are ${CHANNEL_NAMES.join(", ")}`);
  }
  const w = Number(m[2]);
  if (!Number.isFinite(w) || w < 0) throw new InvalidArgumentError(`--weight ${m[1]}: the weight must be a number ≥ 0, got ${JSON.stringify(m[2])}`);
  return { ...previous, [m[1]]: w };
}

/** `--store` of eval and bench: sqlite, pglite, or a PostgreSQL server's URL (each throwaway store a namespace of its own there). */
export type StoreFlag = "sqlite" | "pglite" | PostgresUrl;

export function storeFlag(value: string): StoreFlag {
  if (value === "sqlite" || value === "pglite") return value;
  if (isPostgresUrl(value)) {
    if (value.includes("#")) throw new InvalidArgumentError(`--store: give the server's URL without a #fragment (each throwaway store gets a namespace of its own), got ${JSON.stringify(value)}`);
    return value;
  }
  throw new InvalidArgumentError(`--store takes sqlite, pglite or a postgres:// (postgresql://) URL, got ${JSON.stringify(value)}`);
}
