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
  { name: "dense=0.5", engine: { search: { weights: { dense: 0.5 } } } },
  { name: "colbert=0.7", engine: { search: { weights: { colbert: 0.7 } } } },
  { name: "recency=0.25", engine: { search: { weights: { recency: 0.25 } } } },
  { name: "recency=0", engine: { search: { weights: { recency: 0 } } } },
  { name: "recencyPool=5", engine: { search: { recencyPool: 5 } } },
  { name: "recencyPool=20", engine: { search: { recencyPool: 20 } } },
  { name: "expansions=2", engine: { lateInteraction: { expansions: 2 } } },
  { name: "expansions=4", engine: { lateInteraction: { expansions: 4 } } },
  { name: "rrfK=30", engine: { search: { rrfK: 30 } } },
  { name: "depth=30", engine: { search: { depth: 30 } } },
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
