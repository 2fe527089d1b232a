/**
 * @module eval/readers
 * The datasets `cascade eval` reads, by name: each reader turns its benchmark's files into conversations and
 * questions (eval/dataset.ts), which one evaluator scores.
 */
import type { EvalConversation } from "../dataset.js";
import { loadBeam } from "./beam.js";
import { join } from "node:path";
import { entries, isDirectory, type OnSkip } from "./files.js";
import { invalidInput } from "../../errors.js";
import { loadJsonl } from "./jsonl.js";
import { loadLocomo } from "./locomo.js";
import { loadLongMemEval } from "./longmemeval.js";
import { loadMadial } from "./madial.js";

/**
 * Each reader takes a file or a folder; given `onSkip`, a file of a folder it cannot use (missing, not JSON, a
 * field it cannot read) is reported there in one line naming the file and the field, and the rest are read.
 */
export const DATASET_READERS: Record<string, (path: string, onSkip?: OnSkip) => EvalConversation[]> = {
  locomo: loadLocomo,
  beam: loadBeam,
  longmemeval: loadLongMemEval,
  madial: loadMadial,
  jsonl: loadJsonlFiles,
};

/** A JSONL file is one conversation; a folder, each of its `.jsonl` files in name order. */
function loadJsonlFiles(path: string): EvalConversation[] {
  if (!isDirectory(path)) return [loadJsonl(path)];
  const files = entries(path).filter((f) => f.endsWith(".jsonl"));
  if (files.length === 0) throw invalidInput("path", `${path} holds no .jsonl file`);
  return files.map((f) => loadJsonl(join(path, f)));
}

export const DATASET_NAMES = Object.keys(DATASET_READERS);

/**
 * Reads each dataset given (name → path). With several, every conversation is named "<dataset>/<name>" and its
 * categories "<dataset>:<category>", so reports keep them apart and a fold can leave one dataset out.
 */
export function loadDatasets(paths: Record<string, string>, onSkip?: OnSkip): EvalConversation[] {
  const names = Object.keys(paths);
  if (names.length === 1) return DATASET_READERS[names[0]](paths[names[0]], onSkip);
  return names.flatMap((dataset) =>
    DATASET_READERS[dataset](paths[dataset], onSkip).map((c) => ({
      ...c,
      name: `${dataset}/${c.name}`,
      dataset,
      questions: c.questions.map((q) => ({ ...q, category: `${dataset}:${q.category}` })),
    })),
  );
}
