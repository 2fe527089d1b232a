/**
 * @module pyramid/keeper
 * Keeps the pyramid current right after writes, once per burst. A write only notes what it touched (its windows
 * are already marked dirty in its own transaction); the refresh runs on the next turn of the event loop, or at
 * once when something reads (a search, `pyramid show`, `show`, close). A bulk import that awaits batch after
 * batch therefore recomputes each window once, at its end, instead of after every batch (a day of 1,440 turns
 * imported in batches of 2,000 was summarised 2.4 times); a single `add` is summarised before its caller can look.
 *
 * A refresh that fails (a chat summariser down) never fails a write: its windows stay dirty and the next
 * refresh, open or `pyramid build` retries them.
 */
import type { BuildDeps, BuildReport, PyramidOptions } from "./build.js";
import { noteTurnBacklog, refreshPyramid } from "./maintain.js";

export type RefreshReport = BuildReport & { turns: number };

export class PyramidKeeper {
  private readonly longIds = new Set<string>();
  private pending = false;
  private timer: ReturnType<typeof setImmediate> | null = null;
  private running: Promise<RefreshReport | null> | null = null;

  constructor(
    private readonly deps: () => BuildDeps,
    private readonly opts: PyramidOptions,
  ) {}

  /** A write committed; `longIds` are the memories it wrote that are longer than one chunk. */
  async noteWrite(longIds: string[]): Promise<void> {
    if (!this.opts.enabled) {
      if (longIds.length) await noteTurnBacklog(this.deps());
      return;
    }
    for (const id of longIds) this.longIds.add(id);
    this.pending = true;
    this.timer ??= setImmediate(() => void this.settle());
  }

  /** Runs the pending refresh now (or waits for the one running); null when there was nothing to do or it failed. */
  async settle(): Promise<RefreshReport | null> {
    if (this.timer) clearImmediate(this.timer);
    this.timer = null;
    while (this.running) await this.running;
    if (!this.pending) return null;
    const ids = [...this.longIds];
    this.longIds.clear();
    this.pending = false;
    this.running = refreshPyramid(this.deps(), this.opts, ids).catch(async () => {
      if (ids.length) await noteTurnBacklog(this.deps());
      return null;
    });
    try {
      return await this.running;
    } finally {
      this.running = null;
    }
  }
}
