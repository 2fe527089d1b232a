/**
 * @module surfaces/cli/flags
 * Parsers for flag values: each checks only the form (an integer, a number, NAME=W) and names the flag in its
 * one-line error; the engine validates meaning.
 */
import { InvalidArgumentError } from "commander";
import { CHANNEL_NAMES } from "../../index.js";

export function integer(name: string, min: number) {
  return (value: string) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) throw new InvalidArgumentError(`${name} must be an integer ≥ ${min}, got ${JSON.stringify(value)}`);
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
