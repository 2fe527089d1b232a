/**
 * @module ingest/validate-memory
 * Checks a MemoryInput at the boundary and normalises it (trimmed tags, ISO times, default kind).
 * Nothing is written unless everything here passes.
 */
import { z } from "zod";
import { defaultLimits } from "../config/defaults.js";
import { invalidInput } from "../errors.js";
import type { MemoryInput } from "../model/types.js";
import { formatInstant, parseInstant } from "../time/iso.js";
import { validateTopicPath } from "../topics/path.js";
import { validateMetadata } from "./metadata.js";
import { hasVisibleText, parseWith, requireName, requireWellFormed } from "../validate.js";

const shortText = z.string().max(200, "at most 200 characters");

export const memoryInputSchema = z
  .object({
    text: z.string({ error: "required, a string" }).describe("the memory's text"),
    kind: z
      .string()
      .regex(/^[a-z][a-z0-9_-]{0,31}$/, "a lowercase word such as note, turn or document")
      .refine((k) => k !== "summary", "summary is reserved for the summary pyramid (cascade pyramid build writes them)")
      .optional()
      .describe("note, turn, decision, document... (default: turn when a speaker or role is set, else note)"),
    title: z.string().max(defaultLimits.maxTitleChars, `at most ${defaultLimits.maxTitleChars} characters`).optional().describe("a short title (searched by the curated channel)"),
    description: z.string().max(defaultLimits.maxDescriptionChars, `at most ${defaultLimits.maxDescriptionChars} characters`).optional().describe("a longer description (searched by the curated channel)"),
    tags: z.array(z.string().trim().min(1, "a tag cannot be empty").max(100)).max(defaultLimits.maxTags).optional().describe("tags (searched by the curated channel)"),
    topic: z.string().optional().describe("topic path, e.g. ops.config (default: once the store has topics, the nearest one when it fits; otherwise none)"),
    at: z.string().optional().describe("when it happened, ISO 8601 (default now)"),
    role: shortText.optional().describe("the chat role, e.g. user or assistant"),
    speaker: shortText.optional().describe("who said it (a question naming them favours it)"),
    session: shortText.optional().describe("the conversation it belongs to (its turns are read together)"),
    user: shortText.optional().describe("the person this memory is about or for (a scope: the filter user=ID)"),
    agent: shortText.optional().describe("the agent that wrote it (a scope: the filter agent=ID)"),
    expires: z.string().optional().describe("when it stops being returned by searches and lists, ISO 8601"),
    ttl: z.string().optional().describe("the same as a duration from its time: 90m, 12h, 30d, 2w"),
    // checked by validateMetadata: a plain object, bounded in depth and size (zod's record would recurse)
    metadata: z.custom<Record<string, unknown>>(() => true).optional().describe("a JSON object kept with the memory (filters test its fields)"),
  })
  .strict();

export interface ValidMemory {
  text: string;
  kind: string;
  title: string | null;
  description: string | null;
  tags: string[];
  topic: string | null;
  at: string;
  role: string | null;
  speaker: string | null;
  session: string | null;
  user: string | null;
  agent: string | null;
  expires: string | null;
  metadata: Record<string, unknown>;
}

const TTL = /^(\d{1,6})(m|h|d|w)$/;
const TTL_MS = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;

/** `expires` (an instant) or `ttl` (a duration from the memory's `at`), never both; null when neither. */
function expiryOf(m: MemoryInput, at: number): string | null {
  if (m.expires !== undefined && m.ttl !== undefined) throw invalidInput("ttl", "give expires or ttl, not both");
  if (m.ttl !== undefined) {
    const d = TTL.exec(m.ttl.trim());
    if (!d) throw invalidInput("ttl", `${JSON.stringify(m.ttl.slice(0, 40))} is not a duration such as 90m, 12h, 30d or 2w`);
    // a memory that expires as it is written would never be returned: refused, as an `expires` not after `at` is
    if (Number(d[1]) === 0) throw invalidInput("ttl", `${JSON.stringify(m.ttl.trim())} would expire the memory at once; give a duration above zero`);
    return formatInstant(at + Number(d[1]) * TTL_MS[d[2] as keyof typeof TTL_MS]);
  }
  if (m.expires === undefined) return null;
  const expires = parseInstant("expires", m.expires);
  if (expires <= at) throw invalidInput("expires", "must be later than the memory's at");
  return formatInstant(expires);
}

export function validateMemoryInput(input: unknown, now: number): ValidMemory {
  const m: MemoryInput = parseWith(memoryInputSchema, input);
  if (m.text.trim().length === 0) throw invalidInput("text", "cannot be empty");
  if (!hasVisibleText(m.text)) throw invalidInput("text", "holds only control characters (such as NUL) and spaces: nothing to remember");
  if (m.text.length > defaultLimits.maxTextChars) {
    throw invalidInput("text", `has ${m.text.length} characters; at most ${defaultLimits.maxTextChars} per memory (split long documents first)`);
  }
  for (const field of ["text", "title", "description", "role", "speaker", "session", "user", "agent"] as const) {
    const v = m[field];
    if (v !== undefined) requireWellFormed(field, v);
  }
  m.tags?.forEach((t, i) => requireWellFormed(`tags.${i}`, t));
  for (const field of ["role", "speaker", "session", "user", "agent"] as const) {
    const v = m[field];
    if (v !== undefined) requireName(field, v);
  }
  const tags = [...new Set(m.tags ?? [])];
  const at = m.at === undefined ? now : parseInstant("at", m.at);
  return {
    text: m.text,
    kind: m.kind ?? (m.speaker || m.role ? "turn" : "note"),
    title: m.title?.trim() || null,
    description: m.description?.trim() || null,
    tags,
    topic: m.topic === undefined ? null : validateTopicPath("topic", m.topic),
    at: formatInstant(at),
    role: m.role ?? null,
    speaker: m.speaker ?? null,
    session: m.session ?? null,
    user: m.user ?? null,
    agent: m.agent ?? null,
    expires: expiryOf(m, at),
    metadata: m.metadata === undefined ? {} : validateMetadata(m.metadata),
  };
}
