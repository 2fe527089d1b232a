/**
 * @module eval/readers/madial
 * `eval madial PATH`: MADial-Bench's memory-recall part (He et al., NAACL 2025), PATH a folder holding
 * `<lang>-memory.jsonl` (one `{"<id>": {time, scene, emotion, event}}` a line) and `<lang>-dialogue.jsonl` (one
 * `{dialogue, test-turn, relevant-id, user-id}` a line) for each language present (en, zh).
 *
 * Each language is one conversation: its memory archive in one store (an item per memory: the event, dated by
 * its day, scene and emotion in metadata). Each dialogue is a question: the cue is the dialogue before its first
 * test turn (the turn where the assistant should recall a memory, which would give the answer away), its speakers
 * named as "Name: words"; the evidence is `relevant-id`; the category is the language.
 */
import { join } from "node:path";
import { z } from "zod";
import { invalidInput } from "../../errors.js";
import { formatInstant, parseInstant } from "../../time/iso.js";
import { parseWith } from "../../validate.js";
import type { EvalConversation, EvalItem } from "../dataset.js";
import { entries, isDirectory, noneFound, readEach, readJsonLines, type OnSkip } from "./files.js";

const memorySchema = z.record(z.string(), z.object({ time: z.string(), scene: z.string().optional(), emotion: z.string().optional(), event: z.string() }).passthrough());
const dialogueSchema = z.object({
  dialogue: z.array(z.string()),
  "test-turn": z.array(z.number().int().nonnegative()).min(1),
  "relevant-id": z.array(z.union([z.number(), z.string()])),
  "user-id": z.union([z.number(), z.string()]).optional(),
});

/** `<Bart>: "Hey!"` → `Bart: Hey!`; the <BOD>/<EOD> markers → nothing. */
export function cueLine(line: string): string {
  const text = line.trim();
  if (/^<(BOD|EOD)>$/.test(text)) return "";
  const m = /^<([^>]+)>\s*:\s*(.*)$/s.exec(text);
  const unquote = (s: string) => s.replace(/^["“]|["”]$/g, "").trim();
  return m ? `${m[1]}: ${unquote(m[2])}` : unquote(text);
}

function readLanguage(dir: string, lang: string): EvalConversation {
  const memFile = join(dir, `${lang}-memory.jsonl`);
  const turns: EvalItem[] = readJsonLines(memFile).flatMap(({ line, value }) =>
    Object.entries(parseWith(memorySchema, value, `${memFile}:${line}`)).map(([id, m]) => ({
      id,
      input: { text: m.event, at: formatInstant(parseInstant(`${memFile}:${line}.${id}.time`, m.time)), kind: "memory", metadata: { ref: `${lang}#${id}`, ...(m.scene ? { scene: m.scene } : {}), ...(m.emotion ? { emotion: m.emotion } : {}) } },
    })),
  );
  const known = new Set(turns.map((t) => t.id));
  const dlgFile = join(dir, `${lang}-dialogue.jsonl`);
  const questions = readJsonLines(dlgFile).map(({ line, value }) => {
    const d = parseWith(dialogueSchema, value, `${dlgFile}:${line}`);
    const at = Math.min(...d["test-turn"]);
    if (at >= d.dialogue.length) throw invalidInput(`${dlgFile}:${line}.test-turn`, `turn ${at} is past the dialogue's ${d.dialogue.length} lines`);
    const evidence = d["relevant-id"].map(String);
    const unknown = evidence.find((id) => !known.has(id));
    if (unknown !== undefined) throw invalidInput(`${dlgFile}:${line}.relevant-id`, `memory ${unknown} is not in ${lang}-memory.jsonl`);
    const question = d.dialogue.slice(0, at).map(cueLine).filter(Boolean).join("\n");
    return { question, evidence, category: lang };
  });
  return { name: lang, turns, questions };
}

/** With `onSkip`, a language whose files cannot be used is reported and the others are read. */
export function loadMadial(path: string, onSkip?: OnSkip): EvalConversation[] {
  if (!isDirectory(path)) throw noneFound(path, "MADial files (a folder with <lang>-memory.jsonl and <lang>-dialogue.jsonl)");
  const files = entries(path);
  const langs = files.map((f) => /^(\w+)-memory\.jsonl$/.exec(f)?.[1]).filter((l): l is string => l !== undefined && files.includes(`${l}-dialogue.jsonl`));
  if (langs.length === 0) throw noneFound(path, "MADial files (<lang>-memory.jsonl beside <lang>-dialogue.jsonl)");
  return readEach(langs, (lang) => readLanguage(path, lang), onSkip);
}
