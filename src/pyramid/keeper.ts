/**
 * @module pyramid/keeper
 * Keeps the pyramid current right after writes, once per burst. A write only notes what it touched (its windows
 * are already marked dirty in its own transaction); the refresh runs once no write has begun for `quietMs`, or at
 * once when something reads the pyramid (`pyramid show`, `show`, export, close: `settle`). A write that begins
 * holds the refresh back (ingest yields to the event loop inside a batch, so a timer alone could fire mid-import).
 * A bulk import therefore recomputes each window once, at its end, instead of after every batch (a day of 1,440
 * turns imported in batches of 2,000 was summarised 2.4 times). A search waits only for the refresh of small writes,
 * and only so long (`settleSmall`): the refresh after a batch of long texts takes seconds, and the memories are
 * searchable without it; the search then reads the summaries as they stand, marked stale while their windows are
 * dirty (api/stale-summaries.ts), and the refresh's pauses wait for searches (event-loop's asSearch).
 *
 * A refresh that fails (a chat summariser down, a full disk) never fails a write or the close after it: its windows
 * stay dirty and the next refresh, open or `pyramid build` retries them.
 */
import type { BuildDeps, BuildReport, PyramidOptions } from "./build.js";
import { noteTurnBacklog, refreshPyramid } from "./maintain.js";
import { inSpan } from "../tracing.js";

export type RefreshReport = BuildReport & { turns: number };

/** What the writes a refresh covers hold: the memories written and their characters. */
export interface WrittenSize {
  memories: number;
  chars: number;
}

/** What a search waits for (settleSmall): the refresh of writes at most this size, for at most `ms`. */
export interface SearchWait extends WrittenSize {
  ms: number;
}

export class PyramidKeeper {
  private readonly longIds = new Set<string>();
  private pending = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Writes under way: the refresh waits for them. */
  private writing = 0;
  private running: Promise<RefreshReport | null> | null = null;
  /** A note of long memories without turn nodes that the store could not take (see noteBacklog). */
  private backlogUnnoted = false;
  /** What the writes since the last refresh began hold, and what the running refresh covers. */
  private pendingSize: WrittenSize = { memories: 0, chars: 0 };
  private runningSize: WrittenSize = { memories: 0, chars: 0 };

  constructor(
    private readonly deps: () => BuildDeps,
    private readonly opts: PyramidOptions,
    /** How long after the last write the refresh waits for another (a pause in a bulk import is shorter). */
    private readonly quietMs = 100,
  ) {}

  /** A write begins: no refresh until it has noted what it wrote. */
  beginWrite(): void {
    this.writing++;
    this.disarm();
  }

  /**
   * A write ended (committed or not); `longIds` are the memories it wrote that are longer than one chunk, `size`
   * what it wrote (a search waits for the refresh of small writes only: settleSmall).
   */
  async endWrite(longIds: string[], wrote: boolean, size: WrittenSize = { memories: 0, chars: 0 }): Promise<void> {
    this.writing = Math.max(0, this.writing - 1);
    if (!this.opts.enabled) {
      if (longIds.length || this.backlogUnnoted) await this.noteBacklog();
      return;
    }
    for (const id of longIds) this.longIds.add(id);
    if (wrote) {
      this.pending = true;
      this.pendingSize = { memories: this.pendingSize.memories + size.memories, chars: this.pendingSize.chars + size.chars };
    }
    if (this.pending && this.writing === 0) this.arm();
  }

  /**
   * Notes that long memories wait for their turn nodes. The memories are committed before: a store that cannot
   * take the note (a full disk) fails neither their write nor the close after it; the note is tried again by the
   * next write or refresh, and `pyramid build` finds the memories without one whatever the note says.
   */
  private async noteBacklog(): Promise<void> {
    try {
      await noteTurnBacklog(this.deps());
      this.backlogUnnoted = false;
    } catch {
      this.backlogUnnoted = true;
    }
  }

  private arm(): void {
    this.disarm();
    this.timer = setTimeout(() => void this.settle(), this.quietMs);
    // a process that ends without close leaves the windows dirty; the next open catches up
    this.timer.unref?.();
  }

  private disarm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Runs the pending refresh now (or waits for the one running); null when there was nothing to do or it failed. */
  async settle(): Promise<RefreshReport | null> {
    this.disarm();
    while (this.running) await this.running;
    if (!this.pending) return null;
    const ids = [...this.longIds];
    this.longIds.clear();
    this.pending = false;
    this.runningSize = this.pendingSize;
    this.pendingSize = { memories: 0, chars: 0 };
    this.running = inSpan("cascade.maintenance", { "cascade.task": "pyramid_refresh", "cascade.memories": ids.length }, () => refreshPyramid(this.deps(), this.opts, ids)).catch(async () => {
      if (ids.length || this.backlogUnnoted) await this.noteBacklog();
      return null;
    });
    try {
      return await this.running;
    } finally {
      this.running = null;
    }
  }

  /**
   * A search's wait: the refresh running or pending, as `settle`, only when the writes it covers are small (at most
   * `limit`), and for at most `limit.ms`; otherwise nothing (the search reads the pyramid as it stands). A small
   * refresh is a few windows of a few memories, so a search right after an `add` reads its summaries as before, and
   * one after a batch of long texts does not wait the seconds their refresh takes. What a window holds besides the
   * new writes is not counted: a short write into a day of megabytes, or a slow summariser (a chat model), would
   * hold the search for as long as its refresh takes, so past `limit.ms` the search goes on without it (its
   * summaries marked stale) and the refresh goes on too. Resolves to how the wait ended: "settled" (nothing left
   * to wait for), "late" (the deadline came first) or "not small". `deadline` ends the wait (a test hands in one
   * it resolves itself).
   */
  async settleSmall(limit: SearchWait, deadline?: () => Promise<void>): Promise<"settled" | "late" | "not small"> {
    const small = (s: WrittenSize) => s.memories <= limit.memories && s.chars <= limit.chars;
    const nothingToWaitFor = !this.running && !this.pending;
    const waited = (async () => {
      // one refresh at a time, each judged on its own: a large write that ends meanwhile is not waited for
      while (this.running) {
        if (!small(this.runningSize)) return "not small" as const;
        await this.running;
      }
      if (this.pending) {
        if (!small(this.pendingSize)) return "not small" as const;
        await this.settle();
      }
      return "settled" as const;
    })();
    if (nothingToWaitFor) return waited; // no timer set for the common case
    // past the deadline the refresh is not stopped: it ends in its own time (a failed one is caught in settle)
    void waited.catch(() => undefined);
    // the timer holds the process open (a script awaiting the search while a held refresh holds nothing), and is
    // cleared once the refresh is waited out
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = (deadline ? deadline() : new Promise<void>((resolve) => (timer = setTimeout(resolve, limit.ms)))).then(() => "late" as const);
    try {
      return await Promise.race([waited, late]);
    } finally {
      clearTimeout(timer);
    }
  }
}
