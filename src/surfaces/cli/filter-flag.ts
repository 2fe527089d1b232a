/**
 * @module surfaces/cli/filter-flag
 * The `--filter` flag shared by search, list and forget: repeatable, each value kept whole (a value may hold
 * commas), parsed by the SDK's own parser so that the CLI and JSON bodies mean the same thing. The parser comes
 * with the SDK's front door (and its schemas), loaded only when a command is given a --filter.
 */
import type { FieldCondition } from "../../light.js";

export const FILTER_HELP =
  "only memories where KEY=VALUE holds (repeatable; all must hold). KEY is user, agent, session, speaker, tags or a metadata path (a.b); also KEY!=V, KEY>=V, KEY>V, KEY<=V, KEY<V, KEY=A|B (a backslash before | keeps it in the value)";

export const keepWhole = (value: string, previous: string[] = []) => [...previous, value];

/** The parsed conditions of `--filter`, or undefined when none was given. */
export async function filterConditions(o: { filter?: string[] }): Promise<FieldCondition[] | undefined> {
  return o.filter?.length ? (await import("../../index.js")).parseFilterArgs(o.filter) : undefined;
}
