/**
 * @module surfaces/cli/progress
 * A progress bar on stderr, shown only when stderr is a terminal (never in pipes, CI logs or --json runs).
 */
import { createRequire } from "node:module";
import type * as CliProgress from "cli-progress";
import { io } from "./io.js";

/** cli-progress (CommonJS, a score of modules) is required when a bar is first drawn on a terminal, not at start-up. */
const requireHere = createRequire(import.meta.url);

export interface Progress {
  /** `rate`: units a second, shown when the bar was made with `{ rate: true }`. */
  update(done: number, total: number, rate?: number): void;
  stop(): void;
}

export function progressBar(label: string, unit: string, options: { rate?: boolean } = {}): Progress {
  const stderr = io().stderr;
  if (!stderr.isTTY) return { update() {}, stop() {} };
  const rate = options.rate ? ` | {rate} ${unit}/s` : "";
  const cliProgress = requireHere("cli-progress") as typeof CliProgress;
  const bar = new cliProgress.SingleBar(
    { format: `${label} [{bar}] {percentage}% | {value}/{total} ${unit}${rate} | {eta_formatted} left`, stream: stderr as NodeJS.WritableStream, hideCursor: true },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(done, total, perSecond) {
      const payload = { rate: perSecond === undefined ? "?" : perSecond.toFixed(perSecond < 10 ? 1 : 0) };
      if (!started) {
        bar.start(total, 0, payload);
        started = true;
      }
      bar.setTotal(total);
      bar.update(done, payload);
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
