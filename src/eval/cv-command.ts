/**
 * @module eval/cv-command
 * What `cascade eval DATASET PATH --cv [--grid FILE]` runs: the grid (built in, or read from FILE), each
 * setting laid over the engine configuration of the user's config file, then leave-one-conversation-out
 * (leave-one-dataset-out for `eval mixed`).
 */
import { readFileSync } from "node:fs";
import type { EngineConfig } from "../api/engine.js";
import { CascadeError } from "../errors.js";
import type { EvalConversation } from "./dataset.js";
import type { Embedder, TokenVectors } from "../ports/embedder.js";
import type { StoreMaker } from "../ports/store.js";
import type { RecallOptions } from "../query/options.js";
import type { Metrics } from "./metrics.js";
import { crossValidate, type CvOptions, type CvReport, type CvSetting } from "./cv.js";
import { defaultCvGrid, parseCvGrid } from "./cv-grid.js";

export interface CvCommandOptions {
  grid?: string;
  ablation?: boolean;
  /** Engine configuration from the config file; each setting is merged over it. */
  engine?: EngineConfig;
  search?: Omit<RecallOptions, "channels" | "k">;
  /** The metric each fold chooses its setting by (default recall@10). */
  selectBy?: keyof Metrics;
  foldBy?: CvOptions["foldBy"];
  onProgress?: (done: number, total: number) => void;
}

/** A setting over a base configuration: nested objects (search, weights, lateInteraction...) merge. */
function over(base: EngineConfig, s: CvSetting): EngineConfig {
  const e = s.engine ?? {};
  return {
    ...base,
    ...e,
    search: { ...base.search, ...e.search, weights: { ...base.search?.weights, ...e.search?.weights } },
    lateInteraction: { ...base.lateInteraction, ...e.lateInteraction },
    dense: { ...base.dense, ...e.dense },
  };
}

export async function runCvCommand(
  conversations: EvalConversation[],
  models: { embedder: Embedder; tokens: TokenVectors; stores: StoreMaker },
  o: CvCommandOptions,
): Promise<CvReport> {
  let grid: CvSetting[];
  if (o.grid) {
    let text: string;
    try {
      text = readFileSync(o.grid, "utf8");
    } catch {
      throw new CascadeError("INVALID_INPUT", `--grid: cannot read ${o.grid}`, { field: "grid" });
    }
    grid = parseCvGrid(text, o.grid);
  } else {
    grid = [...defaultCvGrid];
  }
  const settings = grid.map((s) => ({ ...s, engine: over(o.engine ?? {}, s), search: { ...o.search, ...s.search } }));
  return crossValidate(conversations, models, settings, { ablation: o.ablation, selectBy: o.selectBy, foldBy: o.foldBy, onProgress: o.onProgress });
}
