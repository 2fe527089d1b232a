/**
 * @module eval/cv-grid
 * The candidate settings the shipped defaults were chosen from, for `cascade eval locomo --cv`. The first entry
 * is the default itself; every other entry changes one tuned number to a value that was tried, so that the
 * cross-validated figure measures the choice of each default, not just the default. A `--grid FILE` (a JSON array
 * of `{name, engine, search}`) replaces this list to try new ideas the same way.
 */
import { z } from "zod";
import { CascadeError } from "../errors.js";
import type { CvSetting } from "./cv.js";

export const defaultCvGrid: readonly CvSetting[] = Object.freeze([
  { name: "default" },
  { name: "dense.queryWeighting=embedder", engine: { dense: { queryWeighting: "embedder" } } },
  { name: "dense.denseZ=off", engine: { dense: { denseZ: null } } },
  { name: "dense.denseZ=0.5", engine: { dense: { denseZ: 0.5 } } },
  { name: "dense.denseZ=1.5", engine: { dense: { denseZ: 1.5 } } },
  { name: "dense.aloneZ=off", engine: { dense: { aloneZ: null } } },
  { name: "dense.aloneZ=2.5", engine: { dense: { aloneZ: 2.5 } } },
  { name: "dense.aloneZ=3.5", engine: { dense: { aloneZ: 3.5 } } },
  { name: "minCoverage=0", engine: { lateInteraction: { minCoverage: 0 } } },
  { name: "minCoverage=0.3", engine: { lateInteraction: { minCoverage: 0.3 } } },
  { name: "minCoverage=0.4", engine: { lateInteraction: { minCoverage: 0.4 } } },
  { name: "dense=0.5", engine: { search: { weights: { dense: 0.5 } } } },
  { name: "colbert=0.7", engine: { search: { weights: { colbert: 0.7 } } } },
  { name: "recency=0.25", engine: { search: { weights: { recency: 0.25 } } } },
  { name: "recencyPool=5", engine: { search: { recencyPool: 5 } } },
  { name: "recencyPool=20", engine: { search: { recencyPool: 20 } } },
  { name: "expansions=2", engine: { lateInteraction: { expansions: 2 } } },
  { name: "expansions=4", engine: { lateInteraction: { expansions: 4 } } },
  { name: "neighbours=off", engine: { neighbours: { window: 0 } } },
  { name: "neighbours.window=3", engine: { neighbours: { window: 3 } } },
  { name: "neighbours.share=0.1", engine: { neighbours: { share: 0.1 } } },
  { name: "neighbours.share=0.2", engine: { neighbours: { share: 0.2 } } },
  { name: "speakers=off", engine: { speakers: { share: 0 } } },
  { name: "speakers.share=0.1", engine: { speakers: { share: 0.1 } } },
  { name: "speakers.share=0.3", engine: { speakers: { share: 0.3 } } },
  { name: "depth=75", search: { depth: 75 } },
  { name: "depth=125", search: { depth: 125 } },
]);

const settingSchema = z
  .object({
    name: z.string().min(1),
    engine: z.record(z.string(), z.unknown()).optional(),
    search: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

/** Reads a grid from JSON text (a non-empty array of settings; the first is the baseline). */
export function parseCvGrid(text: string, source: string): CvSetting[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new CascadeError("INVALID_INPUT", `--grid: ${source} is not valid JSON (${(err as Error).message})`, { field: "grid" });
  }
  const parsed = z.array(settingSchema).min(1).safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CascadeError("INVALID_INPUT", `--grid: ${source} at ${issue.path.join(".") || "top"}: ${issue.message}`, { field: "grid" });
  }
  const names = parsed.data.map((s) => s.name);
  if (new Set(names).size !== names.length) throw new CascadeError("INVALID_INPUT", `--grid: ${source} repeats a setting name`, { field: "grid" });
  return parsed.data as CvSetting[];
}
