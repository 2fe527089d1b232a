/**
 * @module api/forgetting
 * Forgetting a memory. The row and its indexes go in one transaction (the store's job); then the summaries that
 * quoted it are rebuilt before the call returns, because a day, week or month summary holds its sentences
 * verbatim and would keep answering searches with the forgotten text. Only windows that already have a summary
 * are rebuilt (a forget never builds a pyramid nobody asked for). With `purge`, the store then erases every
 * remaining byte of the text (see backends/sqlite/purge.ts).
 *
 * A purge needs no memory: it finishes what any earlier forget left, one interrupted after its delete committed
 * (killed, or its process lost) included. The delete marked the memory's windows dirty in its own transaction, so
 * a dirty window that has a summary may still quote it; a turn summary left without its memory is an orphan. So
 * `forget ID --purge` on an id already forgotten purges instead of answering NOT_FOUND, and `purge` does it alone.
 */
import { z } from "zod";
import { invalidInput, notFound } from "../errors.js";
import type { FieldCondition } from "../model/filter.js";
import type { Memory } from "../model/types.js";
import type { ListPosition, Store } from "../ports/store.js";
import { whereOf, whereSchema } from "../query/where.js";
import { parseInstant } from "../time/iso.js";
import { parseWith } from "../validate.js";
import { nodeId, type BuildReport } from "../pyramid/build.js";
import { SUMMARY_KIND } from "../model/pyramid.js";
import { windowsOf, type WindowLevel } from "../time/windows.js";

export interface ForgetOptions {
  /** Also erase the text from free pages, index segments, the vocabulary and the write-ahead log. */
  purge?: boolean;
}

export interface Forgotten {
  id: string;
  /** False when the id was not in the store (forgotten already) and `purge` finished its erasure. */
  forgotten: boolean;
  /** Summary windows rebuilt without the memory. */
  summaries_rebuilt: number;
  /** Present with `purge`: what the erasing pass did. */
  purged?: { terms_dropped: number; checkpointed: boolean };
}

/** What `purge` found and did. */
export interface Purged {
  /** Summaries rebuilt because a forget marked their window and did not get to rebuild it. */
  summaries_rebuilt: number;
  /** Turn summaries whose memory was forgotten without them. */
  turn_summaries_removed: number;
  /** Vocabulary words dropped because nothing uses them any more. */
  terms_dropped: number;
  /** Whether the write-ahead log was folded in and truncated (false: another process holds it open; purge again later). */
  checkpointed: boolean;
}

export interface ForgetDeps {
  store: Store;
  /** Rebuilds exactly these (dirty) windows of the pyramid. */
  rebuild: (windows: { level: WindowLevel; start: number }[]) => Promise<BuildReport>;
  /** The engine's clock: what "expired" is measured against. */
  now: number;
}

type WindowKey = { level: WindowLevel; start: number };

/** The windows of a memory's instant that already have a summary (they quote it and must be rebuilt). */
async function summarisedWindows(store: Store, memory: Memory): Promise<WindowKey[]> {
  if (memory.kind === SUMMARY_KIND) return [];
  const zone = await store.pyramidZone();
  const windows = windowsOf(Date.parse(memory.at), zone);
  const nodes = await Promise.all(windows.map((w) => store.getMemory(nodeId(w, zone))));
  return windows.filter((_, i) => nodes[i] !== null).map((w) => ({ level: w.level, start: w.start }));
}

export async function forgetMemory(deps: ForgetDeps, id: string, options: ForgetOptions = {}): Promise<Forgotten> {
  const { store } = deps;
  const memory = await store.getMemory(id);
  if (!memory) {
    if (!options.purge) throw notFound("memory", id);
    // forgotten already, perhaps by a forget that never got to its purge: finish that one
    const p = await purgeForgotten(deps);
    return { id, forgotten: false, summaries_rebuilt: p.summaries_rebuilt, purged: { terms_dropped: p.terms_dropped, checkpointed: p.checkpointed } };
  }
  if (!(await store.deleteMemory(id))) throw notFound("memory", id); // with its turn-level summary
  // looked up after the delete: a summary written before it is found here, one written after it is refused (it
  // would be written from a memory that no longer exists: Store.writeSummary)
  const summarised = await summarisedWindows(store, memory);
  const rebuilt = summarised.length ? await deps.rebuild(summarised) : null;
  const result: Forgotten = { id, forgotten: true, summaries_rebuilt: rebuilt ? rebuilt.written + rebuilt.removed : 0 };
  if (options.purge) {
    const p = await purgeForgotten(deps);
    result.summaries_rebuilt += p.summaries_rebuilt;
    result.purged = { terms_dropped: p.terms_dropped, checkpointed: p.checkpointed };
  }
  return result;
}

/** Erases every remnant of what was forgotten: orphan turn summaries, summaries still quoting it, then the bytes. */
export async function purgeForgotten(deps: ForgetDeps): Promise<Purged> {
  const { store } = deps;
  // a store from before deleteMemory took the turn summary with it may hold one whose memory went
  const orphans = (await store.pyramidNodes({ level: "turn" })).filter((n) => n.children === 0);
  for (const node of orphans) await store.deleteMemory(node.id);
  const zone = await store.pyramidZone();
  const dirty = await store.dirtyWindows();
  const nodes = await Promise.all(dirty.map((w) => store.getMemory(nodeId(w, zone))));
  const stale = dirty.filter((_, i) => nodes[i] !== null);
  const rebuilt = stale.length ? await deps.rebuild(stale) : null;
  const erased = await store.purgeDeleted();
  return { summaries_rebuilt: rebuilt ? rebuilt.written + rebuilt.removed : 0, turn_summaries_removed: orphans.length, ...erased };
}

export const forgetWhereSchema = z
  .object({
    filter: whereSchema.optional(),
    where: z.array(z.custom<FieldCondition>()).optional(),
    /** Only memories that happened before this instant. */
    before: z.string().optional(),
    /** Every memory whose expiry has passed. */
    expired: z.boolean().optional(),
    dryRun: z.boolean().optional(),
    purge: z.boolean().optional(),
  })
  .strict();
export type ForgetWhereOptions = z.input<typeof forgetWhereSchema>;

export interface ForgottenWhere {
  /** The memories the conditions matched (summaries are never matched: they follow their sources). */
  matched: number;
  /** 0 on a dry run. */
  forgotten: number;
  dry_run: boolean;
  ids: string[];
  summaries_rebuilt: number;
  purged?: { terms_dropped: number; checkpointed: boolean };
}

/**
 * Forgets every memory matching scope/metadata conditions and/or happening before an instant; at least one
 * condition is required (an empty filter would forget the whole store). The summaries that quoted any of them
 * are rebuilt once at the end, not once per memory.
 */
export async function forgetWhere(deps: ForgetDeps, options: ForgetWhereOptions): Promise<ForgottenWhere> {
  const o = parseWith(forgetWhereSchema, options);
  const where = whereOf(o);
  const until = o.before !== undefined ? parseInstant("before", o.before) : undefined;
  if (!where && until === undefined && !o.expired) {
    throw invalidInput("filter", "name at least one condition (--filter KEY=VALUE, --before ISO or --expired); an empty filter would forget everything");
  }
  const { store } = deps;
  const matched: Memory[] = [];
  for (let after: ListPosition | undefined; ; ) {
    const page = await store.listMemories({ filter: { where, until, expiredBy: o.expired ? deps.now : undefined, excludeKinds: [SUMMARY_KIND] }, limit: 1000, order: "asc", after });
    matched.push(...page.memories);
    const last = page.memories.at(-1);
    if (!page.more || !last) break;
    after = { at: Date.parse(last.at), id: last.id };
  }
  const result: ForgottenWhere = { matched: matched.length, forgotten: 0, dry_run: Boolean(o.dryRun), ids: matched.map((m) => m.id), summaries_rebuilt: 0 };
  if (o.dryRun || matched.length === 0) return result;
  const windows = new Map<string, WindowKey>();
  for (const m of matched) {
    if (await store.deleteMemory(m.id)) result.forgotten++;
    for (const w of await summarisedWindows(store, m)) windows.set(`${w.level}:${w.start}`, w); // after it, as above
  }
  if (windows.size > 0) {
    const rebuilt = await deps.rebuild([...windows.values()]);
    result.summaries_rebuilt = rebuilt.written + rebuilt.removed;
  }
  if (o.purge) {
    const p = await purgeForgotten(deps);
    result.summaries_rebuilt += p.summaries_rebuilt;
    result.purged = { terms_dropped: p.terms_dropped, checkpointed: p.checkpointed };
  }
  return result;
}
