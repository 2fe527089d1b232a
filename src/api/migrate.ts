/**
 * @module api/migrate
 * `migrateStore`: copies every namespace of one store location into an empty one (a SQLite file into
 * PostgreSQL, PGlite into a file, ...), through the Store port only (ports/copy): sections in COPY_ORDER, a page
 * of records per transaction, ids and times kept. Then both sides are counted, kind by kind, and the report says
 * whether they agree. Refused before anything is written: a source that holds nothing (or is itself an unfinished
 * copy), a target that already holds something, the same location twice.
 *
 * Each page's transaction keeps a mark in the target's namespace (api/copy-mark) saying where the next page starts;
 * the marks go only after the last namespace is in, the default namespace's last. So a copy killed half-way is
 * refused by every other command, and the same migrate run again goes on from the last page that committed (a
 * target marked by a copy of another source is refused). The source's snapshot is removed on every exit the
 * process sees (the CLI turns SIGINT and SIGTERM into an abort between pages); one a SIGKILL left is removed by the
 * next migrate (api/snapshots).
 */
import { existsSync, readdirSync, rmSync } from "node:fs";
import { resolve } from "node:path";
import { CascadeError, invalidInput } from "../errors.js";
import { countOf } from "../text/plural.js";
import { COPY_ORDER, type CopyCounts, type CopySection, type CopySections } from "../ports/copy.js";
import type { Store } from "../ports/store.js";
import { DEFAULT_NAMESPACE, isFileLocation, namespaceDir, namespacePath } from "./namespaces.js";
import { openStoreAt } from "./stores.js";
import { removeStaleSnapshots, snapshotSqliteStore } from "./snapshots.js";
import { DEFAULT_MIGRATE_BATCH } from "./batch-defaults.js";
import { formatMark, interruptedCopy, parseMark, sourceChange, type CopyMark } from "./copy-mark.js";

export interface MigrateOptions {
  from: string;
  to: string;
  /** Records per page, one transaction each (default 500). */
  batch?: number;
  /** Called after each page: records copied so far of the namespace's total (awaited: a caller may hold the copy there). */
  onProgress?: (progress: { namespace: string; done: number; total: number }) => unknown;
  /**
   * Stops the copy between pages (the CLI aborts on SIGINT and SIGTERM): what is written stays, marked incomplete,
   * the snapshot goes, and the same migrate run again resumes.
   */
  signal?: AbortSignal;
}

export interface MigratedNamespace {
  namespace: string;
  source: CopyCounts;
  target: CopyCounts;
  ok: boolean;
}

export interface MigrateReport {
  from: string;
  to: string;
  namespaces: MigratedNamespace[];
  /** Every kind counted alike on both sides, in every namespace. */
  ok: boolean;
  took_ms: number;
}

/** Where a copy goes on from: an interrupted copy's mark (api/copy-mark). */
export interface CopyPosition {
  section: CopySection;
  after: string | null;
  done: number;
}

export interface CopyOptions {
  batch: number;
  /** Called after each page (awaited: a caller may hold the copy there). */
  onProgress?: (done: number, total: number) => unknown;
  /** Go on from here instead of the start (the pages before it are in the target). */
  resume?: CopyPosition;
  /** The mark each page's transaction keeps, given where the next page starts (section null: the copy is whole). */
  mark?: (next: { section: CopySection | null; after: string | null; done: number; total: number }) => string;
  /** Checked before each page: once aborted, the copy stops between pages (what is written stays, marked). */
  signal?: AbortSignal;
}

/** Copies a whole store, section by section, a page per transaction; `onProgress` after each page. */
export async function copyStore(source: Store, target: Store, options: CopyOptions): Promise<void> {
  const c = await source.copy.counts();
  const total = c.memories + c.summaries + c.edges + c.suggestions + c.topics + c.entities;
  let done = options.resume?.done ?? 0;
  const first = options.resume ? COPY_ORDER.indexOf(options.resume.section) : 0;
  for (let i = first; i < COPY_ORDER.length; i++) {
    const section = COPY_ORDER[i];
    let after: string | null = i === first ? (options.resume?.after ?? null) : null;
    do {
      options.signal?.throwIfAborted();
      const page: { records: CopySections[CopySection][]; next: string | null } = await source.copy.read(section, { after, limit: options.batch });
      const counted = section !== "settings" && section !== "dirtyWindows" ? page.records.length : 0;
      const next = page.next !== null ? { section, after: page.next } : { section: COPY_ORDER[i + 1] ?? null, after: null };
      // the dirty windows replace those the copied memories marked, so they are written even when there are none
      // (and, last of the sections, they carry the mark that says every page is in)
      if (page.records.length > 0 || section === "dirtyWindows") {
        await target.copy.write(section, page.records, options.mark?.({ ...next, done: done + counted, total }));
      }
      done += counted;
      await options.onProgress?.(Math.min(done, total), total);
      after = page.next;
    } while (after !== null);
  }
}

/** A location as one string per place, so that two spellings of one store are caught (a relative path, a trailing slash). */
function canonical(location: string): string {
  if (/^pglite:/i.test(location)) {
    const dir = location.slice("pglite:".length);
    return dir === "" || dir === "memory" ? location : `pglite:${resolve(dir)}`;
  }
  return isFileLocation(location) ? resolve(location) : location.replace(/\/+$/, "");
}

/** Refuses what no copy can start from or write to (INVALID_INPUT naming the flag), before anything is opened. */
function checkLocations(from: string, to: string): void {
  for (const [flag, location] of [["--from", from], ["--to", to]] as const) {
    if (typeof location !== "string" || location.trim() === "") throw invalidInput(flag, "a store location is required (a file, postgres://…, pglite:<dir>)");
    if (location.includes("#")) throw invalidInput(flag, `${location}: name the location without #namespace; migrate copies every namespace there`);
    if (location === ":memory:" || /^pglite:(memory)?$/i.test(location)) throw invalidInput(flag, `${location} is a new, empty store each time it is opened: name a file, pglite:<dir> or postgres://…`);
  }
  if (canonical(from) === canonical(to)) throw invalidInput("--to", `${to} is the source itself`);
  const local = isFileLocation(from) ? from : /^pglite:/i.test(from) ? from.slice("pglite:".length) : null;
  if (local !== null && !existsSync(local)) throw invalidInput("--from", `no store at ${from}`);
}

/** The namespaces at a location: a SQLite file's are files beside it, PostgreSQL's share its tables. */
async function namespacesAt(location: string, store: Store): Promise<string[]> {
  if (!isFileLocation(location)) return [...new Set([DEFAULT_NAMESPACE, ...(await store.copy.namespaces())])];
  const dir = namespaceDir(location);
  const others = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".db")).map((f) => f.slice(0, -3)) : [];
  return [DEFAULT_NAMESPACE, ...others.sort()];
}

/**
 * What each namespace at a location holds; one that was ever written (stamped) or holds any record is occupied.
 * `mark`: the copy mark of a migrate that has not finished there (api/copy-mark), or null.
 */
async function contentsAt(location: string, store: Store): Promise<{ ns: string; counts: CopyCounts; occupied: boolean; mark: CopyMark | null }[]> {
  return eachNamespace(location, await namespacesAt(location, store), async (ns, s) => {
    const counts = await s.copy.counts();
    const mark = await s.copy.mark();
    return { ns, counts, occupied: (await s.embedderStamp()) !== null || Object.values(counts).some((n) => n > 0), mark: mark === null ? null : parseMark(mark) };
  });
}

/** Opens the store of each namespace in turn, hands it to `fn`, and closes it. */
async function eachNamespace<T>(location: string, namespaces: string[], fn: (namespace: string, store: Store) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (const ns of namespaces) {
    const store = await openStoreAt(namespacePath(location, ns));
    try {
      out.push(await fn(ns, store));
    } finally {
      await store.close();
    }
  }
  return out;
}

/** The files and folders a copy into `to` may create: a SQLite file's (and its namespaces'), a PGlite folder. */
function targetFiles(to: string, namespaces: string[]): string[] {
  if (/^pglite:/i.test(to)) return [to.slice("pglite:".length)];
  if (!isFileLocation(to)) return [];
  const files = namespaces.flatMap((ns) => ["", "-wal", "-shm", ".hnsw"].map((suffix) => namespacePath(to, ns) + suffix));
  return [...files, namespaceDir(to)];
}

/**
 * A failed copy removes what it created (the target was empty), so that trying again is possible; a server's
 * target cannot be removed here, so the error says what it holds (marked incomplete: a rerun resumes it).
 */
function leaveNoHalfCopy(err: unknown, to: string, created: string[]): unknown {
  for (const path of created) rmSync(path, { recursive: true, force: true });
  if (!(err instanceof CascadeError) || created.length > 0 || err.isUsageError) return err;
  return new CascadeError(err.code, `${err.message}; ${to} holds part of the copy, marked incomplete: run cascade migrate again to resume it (or clear those namespaces)`, { cause: err });
}

/**
 * Which namespaces of the target to copy into, and from where: a fresh copy needs every namespace empty; a target
 * marked by an interrupted copy of the same source goes on where each namespace's mark says. There a namespace
 * with no mark is empty (not reached yet) or whole (its mark was removed as the copy finished: see migrateStore).
 */
function planResume(from: string, to: string, held: Awaited<ReturnType<typeof contentsAt>>): Map<string, CopyMark | "whole"> {
  const marked = held.filter((c) => c.mark !== null);
  if (marked.length === 0) {
    const busy = held.find((c) => c.occupied);
    if (busy) throw invalidInput("--to", `${to} already holds a store (namespace ${busy.ns}: ${countOf(busy.counts.memories, "memory")}); migrate copies into an empty location only`);
    return new Map();
  }
  const other = marked.find((c) => c.mark!.source !== canonical(from));
  if (other) throw invalidInput("--from", `${to} holds an interrupted copy of ${other.mark!.from}, not of ${from}: resume it with --from ${other.mark!.from}`);
  return new Map(held.filter((c) => c.mark !== null || c.occupied).map((c) => [c.ns, c.mark ?? "whole"]));
}

/**
 * A resume refused because its source changed since the copy began (exit 2, nothing written): going on would
 * leave a copy holding records of two states of the source.
 */
function changedSource(from: string, to: string, ns: string, change: string): CascadeError {
  const clear = isFileLocation(to) || /^pglite:/i.test(to) ? `remove ${to}` : `clear its namespaces at ${to}`;
  return invalidInput("--from", `${from} changed since the interrupted copy into ${to} began (namespace ${ns}: ${change}); resuming would mix two states of it: ${clear} and run cascade migrate again to copy it from the start`);
}

/** Copies every namespace at `from` into the empty location `to` and compares the counts of both (see the module note). */
export async function migrateStore(options: MigrateOptions): Promise<MigrateReport> {
  const started = Date.now();
  const { from, to } = options;
  checkLocations(from, to);
  const batch = options.batch ?? DEFAULT_MIGRATE_BATCH;
  if (!Number.isInteger(batch) || batch < 1) throw invalidInput("--batch", `${batch} must be a whole number of records, at least 1`);
  removeStaleSnapshots();

  // the source is checked before the target is opened, so a refused copy creates no target file
  const source = await openStoreAt(from);
  let namespaces: string[];
  try {
    const held = await contentsAt(from, source);
    if (!held.some((c) => c.occupied)) throw invalidInput("--from", `the store at ${from} is empty: nothing to copy`);
    const half = held.find((c) => c.mark !== null);
    if (half) throw invalidInput("--from", interruptedCopy(from, half.mark!).message);
    namespaces = held.map((c) => c.ns);
  } finally {
    await source.close();
  }
  const createdFiles = targetFiles(to, namespaces).filter((f) => !existsSync(f)); // before opening the target creates it
  const target = await openStoreAt(to);
  let resume: Map<string, CopyMark | "whole">;
  try {
    resume = planResume(from, to, await contentsAt(to, target));
  } finally {
    await target.close();
  }
  const mark = (next: Omit<CopyMark, "from" | "source">) => formatMark({ from, source: canonical(from), ...next });
  const results: MigratedNamespace[] = [];
  let snapshot: { location: string; remove: () => void } | null = null;
  try {
    // a fresh target is marked before anything else, so no kill from here on leaves a store that opens as whole
    // (a kill before the first page left one that opened empty, exit 0)
    if (resume.size === 0) {
      await eachNamespace(to, namespaces, (_, t) => t.copy.setMark(mark({ section: COPY_ORDER[0], after: null, done: 0, total: 0 })));
    }
    // A SQLite source another process writes (a server) is read from a snapshot: read page by page, a later page
    // held an edge naming a memory written after the memories' pages were read, and the copy failed half-way.
    snapshot = isFileLocation(from) ? snapshotSqliteStore(from, namespaces) : null;
    // the source as it is now, namespace by namespace: kept in the marks, and on a resume compared with them (a
    // source that changed since the copy began would leave a copy of two states, told only by the final count)
    const fingerprints = new Map(await eachNamespace(snapshot?.location ?? from, namespaces, async (ns, s) => [ns, await s.copy.fingerprint()] as const));
    for (const [ns, was] of resume) {
      const change = was === "whole" || was.total === 0 ? null : sourceChange(was.fingerprint, fingerprints.get(ns)!);
      if (change) throw changedSource(from, to, ns, change);
    }
    for (const ns of namespaces) {
      const [s, t] = [await openStoreAt(namespacePath(snapshot?.location ?? from, ns)), await openStoreAt(namespacePath(to, ns))];
      try {
        const was = resume.get(ns);
        if (was !== "whole" && was?.section !== null) {
          // a namespace resumed keeps the fingerprint its copy began with (it matched: see above)
          const fingerprint = was?.fingerprint && was.total > 0 ? was.fingerprint : fingerprints.get(ns);
          await copyStore(s, t, {
            batch,
            mark: (next) => mark({ ...next, fingerprint }),
            signal: options.signal,
            resume: was && was.section ? { section: was.section, after: was.after, done: was.done } : undefined,
            onProgress: (done, total) => options.onProgress?.({ namespace: ns, done, total }),
          });
        }
        await t.settle();
        const [sc, tc] = [await s.copy.counts(), await t.copy.counts()];
        results.push({ namespace: ns, source: sc, target: tc, ok: (Object.keys(sc) as (keyof CopyCounts)[]).every((k) => sc[k] === tc[k]) });
      } catch (err) {
        if (err instanceof CascadeError) throw err;
        if (options.signal?.aborted) throw new CascadeError("STORE_ERROR", `migrate was interrupted while copying namespace ${ns}; ${to} is marked incomplete: run the same cascade migrate again to resume it`, { cause: err });
        throw new CascadeError("STORE_ERROR", `migrate: copying namespace ${ns} failed: ${(err as Error).message}`, { cause: err });
      } finally {
        await s.close();
        await t.close();
      }
    }
    // every namespace is in: the marks go, the default namespace's last (while it is marked, a rerun resumes)
    for (const ns of [...namespaces].reverse()) {
      const t = await openStoreAt(namespacePath(to, ns));
      try {
        await t.copy.setMark(null);
      } finally {
        await t.close();
      }
    }
  } catch (err) {
    throw options.signal?.aborted || resume.size > 0 ? err : leaveNoHalfCopy(err, to, createdFiles);
  } finally {
    snapshot?.remove();
  }
  return { from, to, namespaces: results, ok: results.every((r) => r.ok), took_ms: Date.now() - started };
}
