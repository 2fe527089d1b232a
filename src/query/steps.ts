/**
 * @module query/steps
 * The read-time steps of a search (model/types.ts STEP_NAMES), each run through one runner that skips it when it is
 * switched off or does not apply, and records what it did: a user can see which step moved their hits, and switch
 * off one that hurts. A step changed the ranking when, after it, the candidates' order, their scores or their number
 * differ from before (a step raises and sorts in place, so the comparison is made on a copy taken before it ran).
 */
import type { StepName, StepReport } from "../model/types.js";
import type { Scored } from "./time.js";

type Step<T extends Scored> = (ranked: T[]) => Promise<T[]> | T[];

/** Each candidate's id and score, in order: what a step may change. */
const shape = (ranked: Scored[]) => ({ ids: ranked.map((r) => r.memoryId), scores: ranked.map((r) => r.score) });

const same = (a: ReturnType<typeof shape>, b: ReturnType<typeof shape>): boolean =>
  a.ids.length === b.ids.length && a.ids.every((id, i) => id === b.ids[i] && a.scores[i] === b.scores[i]);

/**
 * A function that runs one step on a ranking and records its report in `report`. `on`: which steps the search
 * runs (a step missing from it runs); `fused`: false for a search of one channel, whose ranking no step touches.
 */
export function stepRunner(report: Partial<Record<StepName, StepReport>>, on: Readonly<Partial<Record<StepName, boolean>>>, fused: boolean) {
  return async <T extends Scored>(name: StepName, ranked: T[], run: Step<T>): Promise<T[]> => {
    if (on[name] === false) {
      report[name] = "off";
      return ranked;
    }
    if (!fused) {
      report[name] = "not run";
      return ranked;
    }
    const before = shape(ranked);
    const out = await run(ranked);
    report[name] = same(shape(out), before) ? "unchanged" : "changed";
    return out;
  };
}
