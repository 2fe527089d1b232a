/**
 * @module eval/readers/beam
 * `eval beam PATH`: BEAM chats (Tavakoli et al., 2025), PATH a chat folder (chat.json and
 * probing_questions/probing_questions.json) or a folder of numbered chat folders.
 *
 * chat.json is a list of batches `{batch_number, time_anchor?, turns: [[message...]...]}`, a message
 * `{role, id, content, time_anchor?}`. Every message is an item (id = its `id`), with its role and speaker
 * ("User" / "Assistant"), one session per batch, dated by the batch's anchor ("March-15-2024", on the batch or on
 * its first message) plus one second per message so the order survives. The generator's marker at the end of a
 * message (" ->-> 1,1") is not the user's words and is stripped.
 *
 * probing_questions.json maps each question type to a list of questions. Evidence is `source_chat_ids` — a list
 * of message ids (lists may nest), or an object of such lists (`original_info` / `updated_info`,
 * `first_event` / `second_event`...) — together with any "chat_id: N[, M...]" in `conversation_references`; a knowledge
 * update's `updated_info` is also kept apart, to measure whether it ranks first. Abstention questions have none.
 */
import { basename, join } from "node:path";
import { z } from "zod";
import { invalidInput } from "../../errors.js";
import { formatInstant, utcInstant } from "../../time/iso.js";
import { parseWith } from "../../validate.js";
import type { EvalConversation, EvalItem, EvalQuestion } from "../dataset.js";
import { entries, isDirectory, noneFound, readEach, readJson, type OnSkip } from "./files.js";

const messageSchema = z.object({
  role: z.enum(["user", "assistant"]),
  id: z.number().int(),
  content: z.string(),
  time_anchor: z.string().nullish(),
});
const batchSchema = z.object({
  batch_number: z.number().int(),
  time_anchor: z.string().nullish(),
  turns: z.array(z.array(messageSchema)),
});

type Ids = number | Ids[] | { [key: string]: Ids };
const idsSchema: z.ZodType<Ids> = z.lazy(() => z.union([z.number().int(), z.array(idsSchema), z.record(z.string(), idsSchema)]));
// a reference is a line of prose ("chat_id: 58, 59: the budget"), a message id, or a list of them (nested in places)
type Refs = string | number | Refs[];
const refsSchema: z.ZodType<Refs> = z.lazy(() => z.union([z.string(), z.number().int(), z.array(refsSchema)]));
const questionSchema = z
  .object({
    question: z.string(),
    source_chat_ids: idsSchema.nullish(),
    conversation_references: refsSchema.nullish(),
    conversation_reference: refsSchema.nullish(),
  })
  .passthrough();

const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];

/** "March-15-2024" → ms (UTC midnight). */
export function parseBeamAnchor(value: string, field: string): number {
  const m = /^([A-Za-z]+)-(\d{1,2})-(\d{4})$/.exec(value.trim());
  const month = m ? MONTHS.indexOf(m[1].toLowerCase()) : -1;
  const ms = m && month >= 0 ? utcInstant(Number(m[3]), month, Number(m[2])) : null;
  if (ms === null) throw invalidInput(field, `cannot read ${JSON.stringify(value)} as a date like "March-15-2024"`);
  return ms;
}

/** The generator's position marker at a message's end: " ->-> 1,1", " ->-> 2,N/A", " ->-> 5,14)". */
export const stripMarker = (text: string): string => text.replace(/\s*->->[^\n]{0,20}$/, "");

const flatten = (ids: Ids | null | undefined): number[] =>
  ids == null ? [] : typeof ids === "number" ? [ids] : Array.isArray(ids) ? ids.flatMap(flatten) : Object.values(ids).flatMap(flatten);

function readMessages(json: unknown, name: string): EvalItem[] {
  const batches = parseWith(z.array(batchSchema), json, `${name}/chat.json`);
  const items: EvalItem[] = [];
  batches.forEach((b, bi) => {
    const messages = b.turns.flat();
    const anchor = b.time_anchor ?? messages.find((m) => m.time_anchor)?.time_anchor;
    const field = `${name}/chat.json.${bi}.time_anchor`;
    if (!anchor) throw invalidInput(field, "missing: every batch is dated by its anchor (on the batch or on its first message)");
    const start = parseBeamAnchor(anchor, field);
    messages.forEach((m, i) => {
      const speaker = m.role === "user" ? "User" : "Assistant";
      items.push({
        id: String(m.id),
        input: { text: stripMarker(m.content), role: m.role, speaker, session: `batch_${b.batch_number}`, at: formatInstant(start + i * 1000), kind: "turn", metadata: { ref: `${name}#${m.id}` } },
      });
    });
  });
  return items;
}

function readQuestions(json: unknown, name: string, known: Set<string>): EvalQuestion[] {
  const field = `${name}/probing_questions.json`;
  const byType = parseWith(z.record(z.string(), z.array(questionSchema)), json, field);
  return Object.entries(byType).flatMap(([type, list]) =>
    list.map((q, i) => {
      const refs = [q.conversation_references, q.conversation_reference].flat(Infinity as 1) as (Refs | null | undefined)[];
      // a number is a message id; in prose: "chat_id: 58", "chat_id:16", "chat_id 28", "chat_id: 50, 51"; a range
      // ("chat_id 12-15") gives its first id only: in the data every range is spelled out, message by message, in
      // source_chat_ids. "Session 16: ..." names a session, not a message, and is not evidence.
      const fromRefs = refs.flatMap((r) =>
        typeof r === "number" ? [r] : typeof r === "string" ? [...r.matchAll(/chat_id\s*:?\s*(\d+(?:\s*,\s*\d+)*)/gi)].flatMap((m) => m[1].split(",").map(Number)) : [],
      );
      const evidence = [...new Set([...flatten(q.source_chat_ids), ...fromRefs].map(String))];
      const unknown = evidence.find((id) => !known.has(id));
      if (unknown !== undefined) throw invalidInput(`${field}.${type}.${i}.source_chat_ids`, `message ${unknown} is not in chat.json`);
      const ids = q.source_chat_ids;
      const update =
        ids && typeof ids === "object" && !Array.isArray(ids) && "updated_info" in ids
          ? { original: flatten(ids.original_info).map(String), updated: flatten(ids.updated_info).map(String) }
          : undefined;
      return { question: q.question, evidence, category: type, ...(update ? { update } : {}) };
    }),
  );
}

export function readBeamChat(dir: string, name: string): EvalConversation {
  const turns = readMessages(readJson(join(dir, "chat.json")), name);
  const questions = readQuestions(readJson(join(dir, "probing_questions", "probing_questions.json")), name, new Set(turns.map((t) => t.id)));
  return { name, turns, questions };
}

/**
 * A chat folder, or a folder holding chat folders at any depth up to three: BEAM's own tree (chats/100K/1,
 * chats/10M/3...), one size's folder, or a folder of numbered chats. A folder is a chat when it holds chat.json or
 * probing_questions/, or is numbered; each is named by its path below PATH ("100K/13"), sizes and numbered chats
 * in numeric order. With `onSkip`, a chat whose files are missing or unusable is reported and the rest are read.
 */
export function loadBeam(path: string, onSkip?: OnSkip): EvalConversation[] {
  if (!isDirectory(path)) throw noneFound(path, "BEAM chat (a folder with chat.json, or of chat folders)");
  if (isChat(path, basename(path))) return [readBeamChat(path, basename(path) || "chat")];
  const chats = chatFolders(path, "", 3);
  if (chats.length === 0) throw noneFound(path, "BEAM chat folders (chat.json with probing_questions/)");
  return readEach(chats, (name) => readBeamChat(join(path, name), name), onSkip);
}

const isChat = (dir: string, name: string): boolean => {
  const list = entries(dir);
  return list.includes("chat.json") || list.includes("probing_questions") || /^\d+$/.test(name);
};

/** "100K" → 100,000, "10M" → 10,000,000, "7" → 7: BEAM's sizes and chat numbers in their order. */
const sizeOrder = (name: string): number => {
  const m = /^(\d+)([KM]?)$/i.exec(name);
  return m ? Number(m[1]) * (m[2] ? (m[2].toUpperCase() === "K" ? 1e3 : 1e6) : 1) : Infinity;
};

function chatFolders(root: string, under: string, depth: number): string[] {
  const dirs = entries(join(root, under)).filter((d) => isDirectory(join(root, under, d)));
  dirs.sort((a, b) => sizeOrder(a) - sizeOrder(b) || a.localeCompare(b));
  return dirs.flatMap((d) => {
    const name = under ? `${under}/${d}` : d;
    if (isChat(join(root, name), d)) return [name];
    return depth > 1 ? chatFolders(root, name, depth - 1) : [];
  });
}
