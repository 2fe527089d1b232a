/**
 * @module query/where
 * Scope, tag and metadata conditions (Mem0's `filters`): `user`, `agent`, `session` and `speaker` name the
 * memory's own fields, `tags` its tags (a list, like a metadata array: it holds a value when one of its tags does);
 * any other key names a metadata field by its dotted path (`project`, `source.app`; write `metadata.user` or
 * `metadata.tags` for a metadata key that is also one of those names). All conditions must hold. Applied before
 * ranking in every channel, like a topic filter; namespaces stay the hard wall.
 *
 * Two spellings of one thing, parsed here into `FieldCondition`s:
 * - JSON (HTTP, MCP, SDK): `{"user": "alice", "priority": {"gte": 2}, "lang": {"in": ["en", "de"]}}`
 * - CLI (`--filter`, repeatable): `user=alice`, `priority>=2`, `lang=en|de`, `status!=done`, `due<2026-07-01`;
 *   in a value, `\|` is a `|` of the value and `\\` a backslash (`--filter 'user=a\|b'` is the one user "a|b")
 *
 * Meaning, the same in every backend and in memory (query/filter.ts): a metadata array holds a value when one of
 * its elements does; `eq`/`in` compare a number with its decimal text alike (`--filter n=2` finds 2 and "2");
 * ranges compare numbers as numbers and strings as strings (ISO dates sort as text); `ne` also keeps memories
 * without the field.
 */
import { z } from "zod";
import { invalidInput } from "../errors.js";
import { FIELD_OPS, SCOPE_FIELDS, type FieldCondition, type FieldOp, type Scalar, type ScopeField } from "../model/filter.js";
import { SEGMENT } from "../model/matching.js";
import type { Memory } from "../model/types.js";

export { FIELD_OPS, SCOPE_FIELDS, type FieldCondition, type FieldOp, type Scalar, type ScopeField };
import { parseWith } from "../validate.js";

export const whereLimits = Object.freeze({
  /** Conditions per query: each is a bound subquery of every channel's search. */
  maxConditions: 32,
  /** Values in one `in` list. */
  maxValues: 256,
  maxKeyChars: 200,
  maxValueChars: 1_000,
});


/** A filter key → the field it names; refused in one line naming `field` when it cannot be a field. */
export function parseFieldKey(field: string, key: string): FieldCondition["field"] {
  if (key.length === 0 || key.length > whereLimits.maxKeyChars) throw invalidInput(field, `a key has 1 to ${whereLimits.maxKeyChars} characters`);
  if ((SCOPE_FIELDS as readonly string[]).includes(key)) return { scope: key as ScopeField };
  if (key === "tags") return { tags: true };
  const path = key.startsWith("metadata.") ? key.slice("metadata.".length).split(".") : key.split(".");
  const bad = path.find((s) => !SEGMENT.test(s));
  if (bad !== undefined) {
    throw invalidInput(field, `"${key}" is not a field: use user, agent, session, speaker, tags or a metadata path of letters, digits, _ and - joined by dots`);
  }
  return { metadata: path };
}

const scalar = z.union([z.string().max(whereLimits.maxValueChars), z.number().finite(), z.boolean()], {
  error: "a value is a string, a number or a boolean",
});
const operators = z
  .object({
    eq: scalar.optional(),
    ne: scalar.optional(),
    in: z.array(scalar).min(1, "in needs at least one value").max(whereLimits.maxValues).optional(),
    gt: scalar.optional(),
    gte: scalar.optional(),
    lt: scalar.optional(),
    lte: scalar.optional(),
  })
  .strict();
/** The JSON spelling: each key a field, each value a scalar (equality) or an object of operators. */
export const whereSchema = z.record(z.string(), z.union([scalar, operators]));
export type WhereInput = z.input<typeof whereSchema>;

/** The JSON spelling → conditions (`field` names the option for error messages, e.g. "filter"). */
export function parseWhere(input: unknown, field = "filter"): FieldCondition[] {
  const obj = parseWith(whereSchema, input, field);
  const out: FieldCondition[] = [];
  for (const [key, spec] of Object.entries(obj)) {
    const target = parseFieldKey(`${field}.${key}`, key);
    if (typeof spec !== "object") {
      out.push({ field: target, op: "eq", value: spec });
      continue;
    }
    const ops = Object.entries(spec).filter(([, v]) => v !== undefined);
    if (ops.length === 0) throw invalidInput(`${field}.${key}`, `name an operator: ${FIELD_OPS.join(", ")}`);
    for (const [op, value] of ops) {
      if (op !== "in" && typeof value === "boolean" && op !== "eq" && op !== "ne") {
        throw invalidInput(`${field}.${key}.${op}`, "a range needs a number or a string");
      }
      out.push({ field: target, op: op as FieldOp, value: value as Scalar | Scalar[] });
    }
  }
  if (out.length > whereLimits.maxConditions) throw invalidInput(field, `at most ${whereLimits.maxConditions} conditions`);
  return out;
}

/** The conditions of `filter` (JSON) and `where` (parsed `--filter` arguments) together, or none. */
export function whereOf(o: { filter?: unknown; where?: FieldCondition[] }): FieldCondition[] | undefined {
  const all = [...(o.where ?? []), ...(o.filter !== undefined ? parseWhere(o.filter) : [])];
  return all.length > 0 ? all : undefined;
}

/** `--filter` text: a number when it reads as one, a boolean for true/false, else the string itself. */
function cliValue(text: string): Scalar {
  if (text === "true") return true;
  if (text === "false") return false;
  if (/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(text) && Number.isFinite(Number(text))) return Number(text);
  return text;
}

const CLI_OPS: [string, FieldOp][] = [
  [">=", "gte"],
  ["<=", "lte"],
  ["!=", "ne"],
  [">", "gt"],
  ["<", "lt"],
  ["=", "eq"],
];

/** One `--filter` argument: KEY=VALUE, KEY!=VALUE, KEY>=N (also >, <=, <), KEY=A|B|C for a list. */
export function parseFilterArg(arg: string, field = "--filter"): FieldCondition {
  const at = arg.search(/[<>!=]/);
  if (at <= 0) throw invalidInput(field, `"${arg}" is not KEY=VALUE (also KEY!=V, KEY>=V, KEY>V, KEY<=V, KEY<V, KEY=A|B)`);
  const key = arg.slice(0, at);
  const rest = arg.slice(at);
  const found = CLI_OPS.find(([sym]) => rest.startsWith(sym));
  if (!found) throw invalidInput(field, `"${arg}" is not KEY=VALUE (also KEY!=V, KEY>=V, KEY>V, KEY<=V, KEY<V, KEY=A|B)`);
  const [sym, op] = found;
  const text = rest.slice(sym.length);
  if (text.length === 0) throw invalidInput(field, `"${arg}" has no value after ${sym}`);
  if (text.length > whereLimits.maxValueChars) throw invalidInput(field, `a value has at most ${whereLimits.maxValueChars} characters`);
  const target = parseFieldKey(field, key);
  const parts = splitUnescaped(text);
  if (op === "eq" && parts.length > 1) {
    const values = parts.map(cliValue);
    if (values.length > whereLimits.maxValues) throw invalidInput(field, `at most ${whereLimits.maxValues} values in a list`);
    return { field: target, op: "in", value: values };
  }
  return { field: target, op, value: cliValue(parts.join("|")) };
}

/**
 * A `--filter` value cut at each `|` that is not escaped, each piece unescaped: `\|` is a `|` of the value, `\\` a
 * backslash; any other backslash is itself. So every value, `|` and all, can be written (a scope value may hold
 * one), and a value without a backslash reads as it always did.
 */
function splitUnescaped(text: string): string[] {
  const parts: string[] = [];
  let current = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === "\\" && (text[i + 1] === "|" || text[i + 1] === "\\")) current += text[++i];
    else if (ch === "|") {
      parts.push(current);
      current = "";
    } else current += ch;
  }
  parts.push(current);
  return parts;
}


export function parseFilterArgs(args: readonly string[], field = "--filter"): FieldCondition[] {
  if (args.length > whereLimits.maxConditions) throw invalidInput(field, `at most ${whereLimits.maxConditions} conditions`);
  return args.map((a) => parseFilterArg(a, field));
}
