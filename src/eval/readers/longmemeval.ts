/**
 * @module eval/readers/longmemeval
 * `eval longmemeval PATH`: LongMemEval's public format (Wu et al., ICLR 2025) — a JSON list of questions, each
 * with its own haystack: `haystack_sessions` (lists of `{role, content, has_answer?}`), `haystack_session_ids`,
 * `haystack_dates` ("2023/05/20 (Sat) 02:21"), `answer_session_ids`, `question`, `question_type`,
 * `question_date`.
 *
 * Each question is one conversation in a fresh store (its haystack), asked at its `question_date`. Turn-level
 * evidence: the turns marked `has_answer`; session-level: `answer_session_ids`, scored by the session of each
 * hit. Abstention questions (`question_id` ending in "_abs") and questions without a marked turn are counted,
 * not scored, as in LongMemEval's own retrieval metrics.
 *
 * PATH is one file (longmemeval_s.json, _m, _oracle) or a folder of them; from a folder each question is named
 * "<file>/<question_id>", since the files ask the same questions over different haystacks.
 */
import { basename, join } from "node:path";
import { z } from "zod";
import { invalidInput } from "../../errors.js";
import { formatInstant, utcInstant } from "../../time/iso.js";
import { parseWith } from "../../validate.js";
import type { EvalConversation } from "../dataset.js";
import { entries, isDirectory, noneFound, readEach, readJson, type OnSkip } from "./files.js";

const turnSchema = z.object({ role: z.enum(["user", "assistant"]), content: z.string(), has_answer: z.boolean().optional() }).passthrough();
const questionSchema = z
  .object({
    question_id: z.union([z.string(), z.number()]).optional(),
    question: z.string(),
    question_type: z.string(),
    question_date: z.string(),
    haystack_sessions: z.array(z.array(turnSchema)),
    haystack_session_ids: z.array(z.union([z.string(), z.number()])),
    haystack_dates: z.array(z.string()),
    answer_session_ids: z.array(z.union([z.string(), z.number()])),
  })
  .passthrough();

/** "2023/05/20 (Sat) 02:21" (the weekday optional) → ms, read as UTC. */
export function parseLongMemEvalDate(value: string, field: string): number {
  const m = /^(\d{4})\/(\d{1,2})\/(\d{1,2})(?:\s*\([A-Za-z]+\))?(?:\s+(\d{1,2}):(\d{2}))?$/.exec(value.trim());
  const ms = m ? utcInstant(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0)) : null;
  if (ms === null) throw invalidInput(field, `cannot read ${JSON.stringify(value)} as a date like "2023/05/20 (Sat) 02:21"`);
  return ms;
}

export function readLongMemEval(json: unknown, file: string): EvalConversation[] {
  const list = parseWith(z.array(questionSchema), json, file);
  return list.map((q, qi) => {
    const field = `${file}.${qi}`;
    const n = q.haystack_sessions.length;
    if (q.haystack_session_ids.length !== n) throw invalidInput(`${field}.haystack_session_ids`, `${q.haystack_session_ids.length} ids for ${n} sessions`);
    if (q.haystack_dates.length !== n) throw invalidInput(`${field}.haystack_dates`, `${q.haystack_dates.length} dates for ${n} sessions`);
    const turns = q.haystack_sessions.flatMap((session, si) => {
      const sessionId = String(q.haystack_session_ids[si]);
      const start = parseLongMemEvalDate(q.haystack_dates[si], `${field}.haystack_dates.${si}`);
      return session.map((t, ti) => ({
        id: `${sessionId}#${ti}`,
        hasAnswer: t.has_answer === true,
        input: { text: t.content, role: t.role, speaker: t.role === "user" ? "User" : "Assistant", session: sessionId, at: formatInstant(start + ti * 1000), kind: "turn" },
      }));
    });
    const abstention = String(q.question_id ?? "").endsWith("_abs");
    return {
      name: String(q.question_id ?? qi),
      turns: turns.map(({ id, input }) => ({ id, input })),
      questions: [
        {
          question: q.question,
          category: q.question_type,
          now: formatInstant(parseLongMemEvalDate(q.question_date, `${field}.question_date`)),
          evidence: abstention ? [] : turns.filter((t) => t.hasAnswer).map((t) => t.id),
          sessions: abstention ? [] : q.answer_session_ids.map(String),
        },
      ],
    };
  });
}

/** With `onSkip`, a file of a folder that cannot be used is reported and the rest are read. */
export function loadLongMemEval(path: string, onSkip?: OnSkip): EvalConversation[] {
  if (!isDirectory(path)) return readLongMemEval(readJson(path), path);
  const files = entries(path).filter((f) => f.endsWith(".json"));
  if (files.length === 0) throw noneFound(path, "LongMemEval .json files");
  return readEach(files, (f) => readLongMemEval(readJson(join(path, f)), f).map((c) => ({ ...c, name: `${basename(f, ".json")}/${c.name}` })), onSkip).flat();
}
