/**
 * @module ingest/locomo
 * Reads a LoCoMo conversation file (Maharana et al., ACL 2024) into memories: every turn is a memory of kind
 * `turn` with its speaker, its session, an event time from the session's date (plus one second per turn, so
 * the order survives), and its `dia_id` in metadata, with `ref` "<conversation>#<dia_id>" (shown on hits, unique across
 * conversations in one store, the key of an idempotent import). A shared image's caption is appended to the text.
 * The per-session `events_*` annotations are not part of the conversation and are never read.
 */
import { z } from "zod";
import { invalidInput } from "../errors.js";
import { formatInstant, utcInstant } from "../time/iso.js";
import { parseWith } from "../validate.js";

const turnSchema = z.object({
  speaker: z.string(),
  dia_id: z.string(),
  text: z.string(),
  blip_caption: z.string().optional(),
});

const questionSchema = z.object({
  question: z.string(),
  answer: z.unknown().optional(),
  evidence: z.array(z.string()).default([]),
  // LoCoMo numbers its categories; a converted dataset (bench/beam-to-locomo.ts) keeps its question types' names
  category: z.union([z.number(), z.string()]),
});

export interface LocomoTurn {
  /** The turn's `dia_id`. */
  id: string;
  input: { text: string; speaker: string; session: string; at: string; kind: "turn"; metadata: { dia_id: string; ref: string } };
}

export interface LocomoQuestion {
  question: string;
  evidence: string[];
  category: number | string;
}

export interface LocomoConversation {
  name: string;
  turns: LocomoTurn[];
  questions: LocomoQuestion[];
}

const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];

/** "1:47 pm on 18 May, 2023" → ms (read as UTC). */
export function parseLocomoDate(value: string): number {
  const m = /^(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})$/i.exec(value.trim());
  const month = m ? MONTHS.indexOf(m[5].toLowerCase()) : -1;
  if (!m || month < 0) throw invalidInput("session date", `cannot read ${JSON.stringify(value)}`);
  const [h12, minute] = [Number(m[1]), Number(m[2])];
  if (h12 < 1 || h12 > 12 || minute > 59) throw invalidInput("session date", `${JSON.stringify(value)}: not a real time of day (1:00-12:59 am or pm)`);
  const hour = (h12 % 12) + (m[3].toLowerCase() === "pm" ? 12 : 0);
  const ms = Number(m[6]) === 0 ? null : utcInstant(Number(m[6]), month, Number(m[4]), hour, minute);
  if (ms === null) throw invalidInput("session date", `${JSON.stringify(value)}: not a real calendar date`);
  return ms;
}

/** The `session_N` keys in session order; two spellings of one number (`session_1`, `session_01`) are refused. */
function sessionKeys(conv: Record<string, unknown>, name: string): { key: string; k: number }[] {
  const byNumber = new Map<number, string>();
  for (const key of Object.keys(conv)) {
    const m = /^session_(\d+)$/.exec(key);
    if (!m) continue;
    const other = byNumber.get(Number(m[1]));
    if (other !== undefined) throw invalidInput(`${name}.${key}`, `names the same session as ${other}: keep one of them`);
    byNumber.set(Number(m[1]), key);
  }
  return [...byNumber].sort(([a], [b]) => a - b).map(([k, key]) => ({ key, k }));
}

export function readLocomoConversation(json: unknown, name: string): LocomoConversation {
  const root = parseWith(z.object({ conversation: z.record(z.string(), z.unknown()).optional(), qa: z.array(z.unknown()).optional() }).passthrough(), json, name);
  // Files hold either the conversation at top level or under "conversation" (the upstream layout).
  const conv = (root.conversation ?? root) as Record<string, unknown>;
  const sessions = sessionKeys(conv, name);
  const turns: LocomoTurn[] = [];
  // where each dia_id was first seen: a repeated one would be one memory (its ref), the other turn lost
  const seen = new Map<string, string>();
  for (const { key, k } of sessions) {
    const date = conv[`${key}_date_time`];
    if (typeof date !== "string") throw invalidInput(`${name}.${key}_date_time`, "missing");
    const start = parseLocomoDate(date);
    const list = parseWith(z.array(turnSchema), conv[key], `${name}.${key}`);
    list.forEach((t, i) => {
      const where = `${name}.${key}.${i}.dia_id`;
      if (seen.has(t.dia_id)) throw invalidInput(where, `${JSON.stringify(t.dia_id)} is also the dia_id of ${seen.get(t.dia_id)}: each turn needs its own`);
      seen.set(t.dia_id, `${key}.${i}`);
      const text = t.blip_caption ? `${t.text} [shares ${t.blip_caption}]` : t.text;
      turns.push({
        id: t.dia_id,
        input: { text, speaker: t.speaker, session: `session_${k}`, at: formatInstant(start + i * 1000), kind: "turn", metadata: { dia_id: t.dia_id, ref: `${name}#${t.dia_id}` } },
      });
    });
  }
  const questions = parseWith(z.array(questionSchema), root.qa ?? [], `${name}.qa`).map((q) => ({
    question: q.question,
    // a few entries hold several ids in one string ("D8:6; D9:17")
    evidence: q.evidence.flatMap((e) => e.split(/[;,\s]+/)).filter((e) => /^D\d+:\d+$/.test(e)),
    category: q.category,
  }));
  return { name, turns, questions };
}
