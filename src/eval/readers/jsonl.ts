/**
 * @module eval/readers/jsonl
 * `eval jsonl FILE`: a user's own data, one JSON object a line, in any order:
 *   a memory   `{"id": "m1", "text": "...", "time"?: ISO 8601, "speaker"?: "...", "session"?: "..."}`
 *   a question `{"question": "...", "evidence": ["m1", ...], "type"?: "...", "now"?: ISO 8601,
 *               "update"?: {"original": ["m1"], "updated": ["m9"]}}` (a knowledge update: update_first is measured)
 * (a line with `question` is a question). The file is one conversation: every memory in one fresh store, every
 * question asked of it; a question with empty evidence is counted, not scored.
 */
import { z } from "zod";
import { invalidInput } from "../../errors.js";
import { formatInstant, parseInstant } from "../../time/iso.js";
import { parseWith } from "../../validate.js";
import type { EvalConversation, EvalItem, EvalQuestion } from "../dataset.js";
import { readJsonLines } from "./files.js";

const memorySchema = z.object({ id: z.union([z.string().min(1), z.number()]), text: z.string().min(1), time: z.string().optional(), speaker: z.string().optional(), session: z.string().optional() }).strict();
const ids = z.array(z.union([z.string(), z.number()]));
const questionSchema = z
  .object({ question: z.string().min(1), evidence: ids, type: z.string().optional(), now: z.string().optional(), update: z.object({ original: ids.min(1), updated: ids.min(1) }).strict().optional() })
  .strict();

export function loadJsonl(path: string): EvalConversation {
  const turns: EvalItem[] = [];
  const asked: { line: number; q: z.infer<typeof questionSchema> }[] = [];
  const lines = readJsonLines(path);
  for (const { line, value } of lines) {
    const at = `${path}:${line}`;
    if (value && typeof value === "object" && "question" in value) {
      asked.push({ line, q: parseWith(questionSchema, value, at) });
      continue;
    }
    const m = parseWith(memorySchema, value, at);
    const id = String(m.id);
    if (turns.some((t) => t.id === id)) throw invalidInput(`${at}.id`, `${JSON.stringify(id)} is used by an earlier memory`);
    const time = m.time === undefined ? {} : { at: formatInstant(parseInstant(`${at}.time`, m.time)) };
    turns.push({ id, input: { text: m.text, ...time, ...(m.speaker ? { speaker: m.speaker } : {}), ...(m.session ? { session: m.session } : {}), metadata: { ref: id } } });
  }
  if (turns.length === 0) throw invalidInput(path, "no memories (lines like {\"id\": \"m1\", \"text\": \"...\"})");
  const known = new Set(turns.map((t) => t.id));
  const questions: EvalQuestion[] = asked.map(({ line, q }) => {
    const at = `${path}:${line}`;
    const evidence = q.evidence.map(String);
    const unknown = evidence.find((id) => !known.has(id));
    if (unknown !== undefined) throw invalidInput(`${at}.evidence`, `${JSON.stringify(unknown)} is not the id of a memory in the file`);
    const update = q.update && { original: q.update.original.map(String), updated: q.update.updated.map(String) };
    const outside = update && [...update.original, ...update.updated].find((id) => !evidence.includes(id));
    if (outside !== undefined) throw invalidInput(`${at}.update`, `${JSON.stringify(outside)} is not in the question's evidence`);
    return { question: q.question, evidence, category: q.type ?? "all", ...(q.now ? { now: formatInstant(parseInstant(`${at}.now`, q.now)) } : {}), ...(update ? { update } : {}) };
  });
  if (questions.length === 0) throw invalidInput(path, "no questions (lines like {\"question\": \"...\", \"evidence\": [\"m1\"]})");
  return { name: path.split("/").pop()!.replace(/\.jsonl$/, ""), turns, questions };
}
