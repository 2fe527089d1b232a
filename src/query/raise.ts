/**
 * @module query/raise
 * How a read-time step moves one hit above another: its score is raised to just above the other's (four units of
 * the last place of that score, so that no tie leaves the order to chance), and the raise is listed in its
 * `adjustments` with the step's reason, so the trace still sums to the score.
 */
import type { Scored } from "./time.js";

/** Raises `hit` to just above `score`, listing the raise with `reason`. */
export function raiseAbove(hit: Scored, score: number, reason: string): void {
  const delta = score - hit.score + Number.EPSILON * Math.max(1, score) * 4;
  hit.score += delta;
  hit.adjustments.push({ reason, delta });
}
