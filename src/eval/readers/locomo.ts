/**
 * @module eval/readers/locomo
 * `eval locomo PATH`: a LoCoMo conversation file, or a folder of them (ingest/locomo.ts reads each).
 */
import { basename, join } from "node:path";
import { readLocomoConversation } from "../../ingest/locomo.js";
import type { EvalConversation } from "../dataset.js";
import { entries, isDirectory, noneFound, readJson } from "./files.js";

export function loadLocomo(path: string): EvalConversation[] {
  const files = isDirectory(path) ? entries(path).filter((f) => f.endsWith(".json")).map((f) => join(path, f)) : [path];
  if (files.length === 0) throw noneFound(path, ".json files");
  return files.map((f) => readLocomoConversation(readJson(f), basename(f, ".json")));
}
