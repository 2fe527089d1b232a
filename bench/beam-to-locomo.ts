/**
 * Converts BEAM chats to LoCoMo-shaped files, so the same data can be scored through `cascade eval locomo` (and
 * by every tool that reads LoCoMo): one session per batch dated by its anchor, speakers "User" and "Assistant",
 * and dia_ids "D<batch>:<message id>" (the part after the colon IS the BEAM message id). Questions keep their type
 * as category and their evidence as dia_ids; abstention questions keep empty evidence. The chats are read by
 * the same reader as `cascade eval beam`, so both paths see the same text, dates and evidence.
 *
 *   npm run build && node dist/bench/beam-to-locomo.js /work/beam-dev/100K OUT_DIR
 *   node dist/src/surfaces/cli/main.js eval locomo OUT_DIR
 *
 * The output is benchmark data: write it outside the repository and never commit it.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { DATASET_READERS, type EvalConversation } from "../src/index.js";

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** An instant in LoCoMo's session date form: "1:47 pm on 18 May, 2023" (UTC). */
export function locomoDate(iso: string): string {
  const d = new Date(iso);
  const h = d.getUTCHours();
  const minutes = String(d.getUTCMinutes()).padStart(2, "0");
  return `${h % 12 || 12}:${minutes} ${h < 12 ? "am" : "pm"} on ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}, ${d.getUTCFullYear()}`;
}

/** One BEAM chat (as the beam reader gives it) as a LoCoMo conversation file. */
export function toLocomo(chat: EvalConversation): Record<string, unknown> {
  const conversation: Record<string, unknown> = { speaker_a: "User", speaker_b: "Assistant" };
  const diaOf = new Map<string, string>();
  const sessions = [...new Set(chat.turns.map((t) => t.input.session!))];
  sessions.forEach((session, i) => {
    const turns = chat.turns.filter((t) => t.input.session === session);
    conversation[`session_${i + 1}_date_time`] = locomoDate(turns[0].input.at!);
    conversation[`session_${i + 1}`] = turns.map((t) => {
      diaOf.set(t.id, `D${i + 1}:${t.id}`);
      return { speaker: t.input.speaker, dia_id: diaOf.get(t.id), text: t.input.text };
    });
  });
  const qa = chat.questions.map((q) => ({ question: q.question, evidence: q.evidence.map((id) => diaOf.get(id)!), category: q.category }));
  return { conversation, qa };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [from, to] = process.argv.slice(2);
  if (!from || !to) {
    process.stderr.write("usage: node dist/bench/beam-to-locomo.js BEAM_PATH OUT_DIR\n");
    process.exit(2);
  }
  mkdirSync(to, { recursive: true });
  for (const chat of DATASET_READERS.beam(from)) writeFileSync(join(to, `beam-${chat.name}.json`), JSON.stringify(toLocomo(chat)));
}
