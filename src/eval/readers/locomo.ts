/**
 * @module eval/readers/locomo
 * `eval locomo PATH`: a LoCoMo conversation file, or a folder of them (ingest/locomo.ts reads each). A file may
 * also hold a list of conversations, as upstream's locomo10.json does (each named by its `sample_id`).
 */
import { basename, join } from "node:path";
import { readLocomoConversation } from "../../ingest/locomo.js";
import type { EvalConversation } from "../dataset.js";
import { entries, isDirectory, noneFound, readEach, readJson, type OnSkip } from "./files.js";

/** With `onSkip`, a file of a folder that cannot be used is reported and the rest are read. */
export function loadLocomo(path: string, onSkip?: OnSkip): EvalConversation[] {
  const files = isDirectory(path) ? entries(path).filter((f) => f.endsWith(".json")).map((f) => join(path, f)) : [path];
  if (files.length === 0) throw noneFound(path, ".json files");
  return readEach(files, (f) => readFile(f), onSkip).flat();
}

function readFile(file: string): EvalConversation[] {
  const json = readJson(file);
  const name = basename(file, ".json");
  if (!Array.isArray(json)) return [readLocomoConversation(json, name)];
  return json.map((conv, i) => {
    const id = (conv as { sample_id?: unknown } | null)?.sample_id;
    return readLocomoConversation(conv, typeof id === "string" || typeof id === "number" ? String(id) : `${name}.${i}`);
  });
}
