/**
 * @module bench/memory-trace
 * Where a bench's memory goes: process.memoryUsage() sampled at an interval and at every phase change, each
 * sample tagged with the phase it fell in. Reports, per phase, the sample with the highest RSS (and what it
 * held: V8 heap, external memory, array buffers) and the phase's highest heap. A phase that blocks the event
 * loop (the graph's native build) is seen only at its edges.
 */

export interface MemorySample {
  /** ms since the trace started */
  t: number;
  phase: string;
  /** MB, one decimal */
  rss: number;
  heap_total: number;
  heap_used: number;
  external: number;
  array_buffers: number;
  /** The process's highest RSS so far (getrusage): shows which phase set the peak even when no sample caught it. */
  max_rss: number;
}

export interface PhaseMemory {
  samples: number;
  /** The sample with the phase's highest RSS. */
  peak: MemorySample;
  /** The phase's highest V8 heap (total reserved, used). */
  max_heap_total: number;
  max_heap_used: number;
}

export type MemoryUsage = () => NodeJS.MemoryUsage;
/** The process's highest RSS so far, in bytes. */
export type MaxRss = () => number;

const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;

export class MemoryTrace {
  private phaseName = "start";
  private readonly started: number;
  private timer: ReturnType<typeof setInterval> | null;
  private last = 0;
  readonly samples: MemorySample[] = [];

  /** `intervalMs` 0: samples at phase changes only. `usage` is injectable for tests. */
  constructor(
    private readonly intervalMs: number,
    private readonly usage: MemoryUsage = process.memoryUsage,
    private readonly maxRss: MaxRss = () => process.resourceUsage().maxRSS * 1024,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.started = now();
    this.sample();
    this.timer = intervalMs > 0 ? setInterval(() => this.sample(), intervalMs) : null;
    // a trace never keeps the process alive
    this.timer?.unref?.();
  }

  get phase(): string {
    return this.phaseName;
  }

  /** Closes the current phase with a sample and opens the next. */
  enter(phase: string): void {
    this.sample();
    this.phaseName = phase;
    this.sample();
  }

  /**
   * A sample if the interval has passed since the last one: for loops that never yield to timers (a search's
   * awaits resolve at once, so a query loop can run for minutes without the interval firing).
   */
  tick(): void {
    if (this.intervalMs > 0 && this.now() - this.last >= this.intervalMs) this.sample();
  }

  sample(): MemorySample {
    this.last = this.now();
    const u = this.usage();
    const s: MemorySample = {
      t: Math.round(this.now() - this.started),
      phase: this.phaseName,
      rss: mb(u.rss),
      heap_total: mb(u.heapTotal),
      heap_used: mb(u.heapUsed),
      external: mb(u.external),
      array_buffers: mb(u.arrayBuffers),
      max_rss: mb(this.maxRss()),
    };
    this.samples.push(s);
    return s;
  }

  /** Ends the trace with a last sample; later calls do nothing. */
  stop(): void {
    if (!this.timer && this.phaseName === "stopped") return;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.sample();
    this.phaseName = "stopped";
  }

  /** Per phase, in the order the phases came. */
  byPhase(): Record<string, PhaseMemory> {
    const out: Record<string, PhaseMemory> = {};
    for (const s of this.samples) {
      const p = out[s.phase];
      if (!p) out[s.phase] = { samples: 1, peak: s, max_heap_total: s.heap_total, max_heap_used: s.heap_used };
      else {
        p.samples++;
        if (s.rss > p.peak.rss) p.peak = s;
        p.max_heap_total = Math.max(p.max_heap_total, s.heap_total);
        p.max_heap_used = Math.max(p.max_heap_used, s.heap_used);
      }
    }
    return out;
  }
}
