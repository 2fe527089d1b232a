/**
 * @module api/write-path
 * The ingest pipeline behind remember and rememberMany: validate → (dedupe) → conversational context → chunk and
 * embed → place in a topic → entities → one write transaction per batch (with the `supersedes` edges the items
 * name) → revision detection. An invalid item is reported with its index and never costs the valid ones.
 * Each batch is validated, chunked, embedded and its entities extracted while the batch before it is written;
 * whatever reads the store waits for that batch's commit.
 * The batch pass itself stays here, in one method: its stages share the batch's bookkeeping (refs, import keys,
 * which items were written). What they take and answer is write-shapes.ts, the input's cutting and reading
 * write-batches.ts, revision detection write-detection.ts, the wording of failures write-failures.ts.
 */
import { CascadeError, invalidInput, notFound } from "../errors.js";
import type { WrittenSize } from "../pyramid/keeper.js";
import type { EntityExtractor } from "../entities/extract.js";
import { partitionByImportKey } from "../ingest/dedupe.js";
import { attachEntities, extractEntities, keepKnownEntities } from "../ingest/entities.js";
import type { Scope } from "../model/scope.js";
import { sessionContexts } from "../ingest/context.js";
import { draftMemories, finishMemories, prepareMemories } from "../ingest/prepare.js";
import { validateMemoryInput } from "../ingest/validate-memory.js";
import type { Edge, EdgeDraft } from "../model/graph.js";
import type { Memory, PreparedMemory } from "../model/types.js";
import { topicPlacer, type TopicPlacer } from "../topics/placement.js";
import type { ResolvedEngineConfig } from "./engine-config.js";
import { parseWith } from "../validate.js";
import { letIoIn, letIoInEvery } from "../event-loop.js";
import { enrich, EnrichmentLog } from "../ingest/enrichment.js";
import { batchEnd, bySupersedes, DEFAULT_BATCH, splitSupersedes, type Drafted, type Item, type Lookahead } from "./write-batches.js";
import { detect } from "./write-detection.js";
import { afterCommit, errorMessage, stoppedWrite, type Committed } from "./write-failures.js";
import { memoryChangesSchema, type BatchResult, type MemoryChanges, type RetryReport, type WriteDeps, type WriteOptions } from "./write-shapes.js";

// callers (the engine, fact actions, restore, enrichment-check, index.ts) name the shapes and the failure report from here
export { memoryChangesSchema, type BatchOptions, type BatchResult, type MemoryChanges, type Remembered, type RetryReport, type WriteDeps, type WriteOptions } from "./write-shapes.js";
export { storedBeforeFailure } from "./write-failures.js";


export class WritePath {
  /** Topic centroids, loaded on the first write that needs them and kept current by this engine's writes. */
  private placer: TopicPlacer | null = null;

  constructor(
    private readonly deps: WriteDeps,
    private readonly config: Pick<ResolvedEngineConfig, "conversationContext" | "denseContext" | "placement" | "detection" | "judge"> & { extractor: EntityExtractor | null },
  ) {}

  /**
   * A correction of what a memory says (text, title, description, tags, topic, metadata, expiry): re-chunked,
   * re-embedded and re-indexed under the same id, with its time, speaker, session and edges kept; the previous
   * content stays in the memory's revisions. Summaries are rebuilt, never edited.
   */
  async revise(id: string, changes: MemoryChanges): Promise<Memory> {
    const c = parseWith(memoryChangesSchema, changes, "update");
    if (Object.keys(c).length === 0) throw invalidInput("update", "name at least one field to change (text, title, description, tags, topic, metadata, expires, ttl)");
    const old = await this.deps.store.getMemory(id);
    if (!old) throw notFound("memory", id);
    if (old.kind === "summary") throw invalidInput("id", "a summary is rebuilt from its sources, not edited: update the memories it summarises");
    const now = this.deps.clock.now();
    const kept = Object.fromEntries(
      (["text", "kind", "title", "description", "tags", "topic", "at", "role", "speaker", "session", "user", "agent", "metadata", "expires"] as const)
        .map((k) => [k, old[k] ?? undefined])
        .filter(([, v]) => v !== undefined),
    );
    // null clears a field (title, description, topic, expires); a new ttl replaces the old expiry and counts from
    // the memory's own time, like the first one
    const merged: Record<string, unknown> = { ...kept, ...c };
    if (c.ttl !== undefined) delete merged.expires;
    for (const [k, v] of Object.entries(merged)) if (v === null) delete merged[k];
    const valid = validateMemoryInput(merged, now);
    const [prepared] = await attachEntities(await prepareMemories([valid], this.deps.embedder, now), this.config.extractor, this.knownKeys);
    const next = { ...prepared, memory: { ...prepared.memory, id, recordedAt: old.recordedAt } };
    this.deps.keeper.beginWrite();
    try {
      await this.deps.store.reviseMemory(next, this.deps.stamp, now);
    } finally {
      await this.deps.keeper.endWrite(next.chunks.length > 1 ? [id] : [], true, { memories: 1, chars: next.memory.text.length });
    }
    return (await this.deps.store.getMemory(id))!;
  }

  /**
   * Runs the failed enrichment steps of stored memories again, the oldest `limit` first: a step that succeeds now
   * adds what it finds (mentions, revision edges) and its failure is forgotten; one that fails again counts one
   * more attempt. Topic placement is not rerun: a stored memory keeps the topic it has until `update` sets one.
   */
  async retryEnrichment(limit: number): Promise<RetryReport> {
    const { store } = this.deps;
    const { first } = await store.enrichment.pending(limit);
    const report: RetryReport = { tried: 0, cleared: 0, failedAgain: 0, notRetried: 0 };
    const now = this.deps.clock.now();
    this.deps.keeper.beginWrite();
    try {
      for (const f of first) {
        const memory = await store.getMemory(f.memoryId);
        if (!memory || f.step === "topic" || (f.step === "entities" && !this.config.extractor)) {
          report.notRetried++;
          continue;
        }
        report.tried++;
        const log = new EnrichmentLog();
        if (f.step === "entities") {
          const [found] = (await extractEntities([memory], this.config.extractor, log))!;
          if (!log.byIndex.size) {
            const [kept] = await keepKnownEntities([{ memory, chunks: [] }], [found], this.knownKeys);
            await store.enrichment.attachEntities(memory.id, kept.entities ?? []);
          }
        } else {
          // detection compares the memory's first chunk: its vector is the embedding of that chunk's text
          const chunkId = (await store.firstChunkIds([memory.id])).get(memory.id);
          const text = chunkId === undefined ? memory.text : (await store.hydrate([chunkId])).get(chunkId)?.text ?? memory.text;
          const [vector] = await this.deps.embedder.embed([text]);
          const chunk = { ord: 0, start: 0, end: text.length, text, indexedText: text, contextChars: 0, vector, terms: [] };
          await this.detect([{ memory, chunks: [chunk] }], now, [0], log);
          if (!log.byIndex.size) await store.enrichment.clear(memory.id, "revisions");
        }
        const again = log.byIndex.get(0);
        if (again?.length) {
          report.failedAgain++;
          await store.enrichment.record([{ memoryId: memory.id, step: f.step, reason: again[0].reason, at: now }]);
        } else report.cleared++;
      }
    } finally {
      await this.deps.keeper.endWrite([], true);
    }
    return report;
  }

  /** Topics changed: centroids and descriptions are read again on the next write. */
  forgetTopics(): void {
    this.placer = null;
  }

  /**
   * Stores many memories, one transaction per batch. An invalid item is reported with its index and never
   * costs the valid ones; if a batch's write fails as a whole, its items are retried one by one to isolate it.
   * `supersedes` may name memory ids or the `metadata.ref` of items earlier in the same call.
   */
  async write(
    inputs: readonly unknown[],
    options: WriteOptions = {},
  ): Promise<BatchResult> {
    // the pyramid's refresh waits until this write has committed and noted what it wrote (pyramid/keeper.ts)
    const longIds: string[] = [];
    const committed: Committed = { stored: 0, from: 0 };
    this.deps.keeper.beginWrite();
    try {
      return await this.writeMany(inputs, options, longIds, committed);
    } catch (err) {
      throw stoppedWrite(err, committed, inputs.length);
    } finally {
      // even a write that failed part-way may have committed batches: a refresh with nothing dirty costs one lookup
      await this.deps.keeper.endWrite(longIds, true, writtenSize(inputs));
    }
  }

  private async writeMany(
    inputs: readonly unknown[],
    options: WriteOptions,
    longIds: string[],
    committed: Committed,
  ): Promise<BatchResult> {
    const batchSize = options.batchSize ?? DEFAULT_BATCH;
    const result: BatchResult = { imported: 0, skipped: 0, ids: inputs.map(() => null), failed: [], warnings: [] };
    const log = new EnrichmentLog();
    const now = this.deps.clock.now();
    const refs = new Map<string, string>();
    const seen = new Map<string, string | null>(); // import keys of this run (dedupe)
    const fail = (index: number, err: unknown) => {
      // only the caller's mistakes are reported per item; a store failure (a lock held too long) stops the
      // batch, so that an import never reports success having dropped good lines
      if (options.failFast || !(err instanceof CascadeError && err.isUsageError)) throw err;
      result.failed.push({ index, error: errorMessage(err) });
    };
    const partition = <T extends Item>(items: T[], record: boolean) =>
      partitionByImportKey(items, (v) => inputs[v.index], (keys) => this.deps.store.memoryIdsByImportKey(keys), seen, record);
    // each batch is validated and drafted (chunked, embedded, its entities extracted) while the one before it is
    // written: on a server the write is mostly waiting, and drafting needs nothing the write changes
    const ahead = (start: number): Promise<Lookahead> => {
      const end = batchEnd(inputs, start, batchSize);
      const look = (async () => {
        if (start > 0) await letIoIn(); // the batch before is sent first
        const valid: Item[] = [];
        const failures: Lookahead["failures"] = [];
        for (let index = start; index < end; index++) {
          await letIoInEvery(index - start); // a write in flight is answered in between
          try {
            const { supersedes, rest } = splitSupersedes(inputs[index]);
            valid.push({ index, memory: validateMemoryInput(rest, now), supersedes });
          } catch (err) {
            failures.push({ index, err });
          }
        }
        // lines the store or this run surely holds are not drafted (a resumed import embeds nothing twice); the
        // batch's own dedupe, once the batch before is written, decides
        const likely = options.dedupe ? (await partition(valid, false)).fresh : valid;
        return { end, valid, failures, drafts: await this.draft(likely, log) };
      })();
      look.catch(() => {}); // a failure is thrown when the batch's turn comes, not before the batch ahead is written
      return look;
    };
    let next: Promise<Lookahead> | null = inputs.length > 0 ? ahead(0) : null;
    while (next) {
      const { end, valid: checked, failures, drafts } = await next;
      next = null;
      for (const f of failures) fail(f.index, f.err);
      let valid: (Item & { importKey?: string })[] = checked;
      if (options.dedupe) {
        const split = await partition(valid, true);
        valid = split.fresh;
        result.skipped += split.skipped.length;
        for (const s of split.skipped) {
          result.ids[s.index] = s.id;
          const ref = (inputs[s.index] as { metadata?: { ref?: unknown } }).metadata?.ref;
          if (typeof ref === "string" && s.id) refs.set(ref, s.id);
        }
      }
      // a line the look ahead skipped may be fresh now: its twin earlier in the run failed to write
      const undrafted = valid.filter((v) => !drafts.has(v.index));
      if (undrafted.length) for (const [index, d] of await this.draft(undrafted, log)) drafts.set(index, d);
      const contexts = this.config.conversationContext ? await sessionContexts(valid.map((v) => v.memory), (session, at, scope) => this.deps.store.previousInSession(session, at, scope)) : [];
      const finished = await finishMemories(valid.map((v) => drafts.get(v.index)!.draft), this.deps.embedder, now, contexts, this.config.denseContext);
      const found = this.config.extractor ? valid.map((v) => drafts.get(v.index)!.entities!) : null;
      const prepared = await keepKnownEntities(await this.placeTopics(finished, valid.map((v) => v.index), log), found, this.knownKeys);
      // the steps that failed so far are recorded with the memory, in its transaction, for a later retry
      prepared.forEach((p, i) => {
        const failed = log.byIndex.get(valid[i].index);
        if (failed?.length) p.failures = failed.map((w) => ({ ...w, at: now }));
      });
      // a context taken from earlier in this batch names its memory once that memory has an id
      contexts.forEach((c, i) => c?.batchIndex !== undefined && (prepared[i].contextOf = prepared[c.batchIndex].memory.id));
      prepared.forEach((p, i) => {
        if (valid[i].importKey) seen.set((p.importKey = valid[i].importKey)!, p.memory.id);
        const ref = valid[i].memory.metadata.ref;
        if (typeof ref === "string") refs.set(ref, p.memory.id);
      });
      if (end < inputs.length) next = ahead(end);
      const edgesOf = (i: number): EdgeDraft[] =>
        valid[i].supersedes.map((old) => ({
          type: "supersedes",
          from: prepared[i].memory.id,
          to: refs.get(old) ?? old,
          validFrom: Date.parse(prepared[i].memory.at),
          validTo: null,
          recordedAt: now,
          provenance: options.provenance ?? "api",
          confidence: 1,
          reason: null,
        }));
      const written: number[] = [];
      const edges: Edge[] = [];
      try {
        edges.push(...(await this.deps.store.writeMemories(prepared, this.deps.stamp, prepared.flatMap((_, i) => edgesOf(i)))));
        written.push(...prepared.keys());
      } catch (batchError) {
        if (!(batchError instanceof CascadeError && batchError.isUsageError) || batchError.code === "EMBEDDER_MISMATCH") throw batchError;
        if (prepared.length === 1) fail(valid[0].index, bySupersedes(batchError));
        else {
          for (const [i, p] of prepared.entries()) {
            try {
              edges.push(...(await this.deps.store.writeMemories([p], this.deps.stamp, edgesOf(i))));
              written.push(i);
            } catch (err) {
              fail(valid[i].index, bySupersedes(err));
            }
          }
        }
      }
      // a line that failed was not stored: an identical later line may still be
      valid.forEach((v, i) => v.importKey && !written.includes(i) && seen.delete(v.importKey));
      for (const i of written) {
        if (prepared[i].chunks.length > 1) longIds.push(prepared[i].memory.id);
        result.ids[valid[i].index] = prepared[i].memory.id;
        options.onWritten?.(valid[i].index, prepared[i].memory);
      }
      result.imported += written.length;
      committed.stored = result.imported;
      committed.from = end;
      // the batch is committed: what follows (revision detection's edges and suggestions, the record of its
      // failures) failing is a warning on each memory it concerns, never an error saying they were not stored
      try {
        // Explicit supersedes always wins: only memories that named no predecessor are looked at.
        const looked = written.filter((i) => valid[i].supersedes.length === 0);
        const detected = options.detect !== false ? await this.detect(looked.map((i) => prepared[i]), now, looked.map((i) => valid[i].index), log) : null;
        // detection runs once the memories are committed: its failures are recorded right after
        const undetected = looked.flatMap((i) => (log.byIndex.get(valid[i].index) ?? []).filter((w) => w.step === "revisions").map((w) => ({ memoryId: prepared[i].memory.id, step: w.step, reason: w.reason, at: now })));
        if (undetected.length) await this.deps.store.enrichment.record(undetected);
        if (options.onRevisions) {
          const ids = new Set(written.map((i) => prepared[i].memory.id));
          const suggestions = detected?.suggested ? (await this.deps.store.listSuggestions("open")).filter((s) => ids.has(s.from)) : [];
          options.onRevisions({ edges: [...edges, ...(detected?.edges ?? [])], suggestions });
        }
      } catch (err) {
        const looked = written.filter((i) => valid[i].supersedes.length === 0 && !log.byIndex.get(valid[i].index)?.some((w) => w.step === "revisions"));
        for (const i of looked) log.note(valid[i].index, "revisions", afterCommit(err));
        options.onRevisions?.({ edges, suggestions: [] });
        // kept for `doctor --repair` when the store takes the record (a lock that passed); a full disk may not
        const rows = looked.map((i) => ({ memoryId: prepared[i].memory.id, step: "revisions" as const, reason: log.byIndex.get(valid[i].index)!.at(-1)!.reason, at: now }));
        await this.deps.store.enrichment.record(rows).catch(() => {});
      }
      options.onProgress?.(end, inputs.length);
      // let a server answer other requests between batches: an await alone resumes before any I/O is read
      if (next) await letIoIn();
    }
    result.failed.sort((a, b) => a.index - b.index);
    // a warning of an item that was not stored after all (its write failed) says nothing about a stored memory
    result.warnings = log.list().filter((w) => result.ids[w.index] !== null);
    return result;
  }

  /**
   * The keys (exact, or an alias) of entities some memory of `scope` mentions: one look-up of the keys (then one
   * per key an alias may explain), one of their mentions in the scope.
   */
  private readonly knownKeys = async (keys: string[], scope: Scope): Promise<Set<string>> => {
    const { entities } = this.deps.store;
    const found = await entities.byKeys(keys);
    const idOf = new Map(found.filter((e) => keys.includes(e.key)).map((e) => [e.key, e.id]));
    if (found.length > idOf.size) {
      for (const k of keys) if (!idOf.has(k)) for (const e of await entities.byKeys([k])) idOf.set(k, e.id);
    }
    if (idOf.size === 0) return new Set();
    const inScope = new Set((await entities.mentioning({ entityIds: [...new Set(idOf.values())], limit: 1, filter: { scope } })).map((m) => m.entityId));
    return new Set([...idOf].filter(([, id]) => inScope.has(id)).map(([k]) => k));
  };

  /** Drafts of these items by input index: chunked and embedded, with what the extractor finds in each. */
  private async draft(items: Item[], log: EnrichmentLog): Promise<Map<number, Drafted>> {
    const drafts = await draftMemories(items.map((v) => v.memory), this.deps.embedder);
    const entities = await extractEntities(items.map((v) => v.memory), this.config.extractor, log, items.map((v) => v.index));
    return new Map(items.map((v, i) => [v.index, { draft: drafts[i], entities: entities?.[i] ?? null }]));
  }

  /**
   * Gives each memory that came without a topic the nearest topic when one fits, recording the decision (and,
   * when none fits, that the placer abstained and which topic was nearest) in `metadata.placement`. A memory that
   * fits none keeps no topic, unless `placement.unsorted` files it under `unsorted`. Explicit topics are never
   * changed. A store with no topic places nothing.
   */
  private async placeTopics(prepared: PreparedMemory[], indexes: number[], log: EnrichmentLog): Promise<PreparedMemory[]> {
    if (!this.config.placement.enabled || prepared.length === 0) return prepared;
    const placer = await this.loadPlacer();
    const placed: PreparedMemory[] = [];
    for (const [i, p] of prepared.entries()) {
      placed.push(
        await enrich(log, indexes[i], "topic", () => {
          const vector = p.chunks[0].vector;
          if (p.memory.topic !== null) {
            placer.add(p.memory.topic, vector);
            return p;
          }
          const placement = placer.place(vector);
          if (!placement) return p;
          // an automatic placement never moves a centroid (see topics-sql topicMemberVectors)
          return { ...p, memory: { ...p.memory, topic: placement.topic, metadata: { ...p.memory.metadata, placement } } };
        }, p),
      );
    }
    return placed;
  }

  private async loadPlacer(): Promise<TopicPlacer> {
    if (!this.placer) {
      const rows = (await this.deps.store.topicRows()).filter((r) => r.description);
      const vectors = rows.length ? await this.deps.embedder.embed(rows.map((r) => r.description!)) : [];
      const described = rows.map((r, i) => ({ ...r, vector: vectors[i] }));
      this.placer = topicPlacer(await this.deps.store.topicVectorSums(), described, this.config.placement);
    }
    return this.placer;
  }

  /** Revision detection for stored memories (write-detection.ts). */
  private detect(memories: PreparedMemory[], now: number, indexes: number[], log: EnrichmentLog): Promise<{ edges: Edge[]; suggested: boolean }> {
    return detect(this.deps.store, this.config, memories, now, indexes, log);
  }
}

/** What a write asked to store (invalid items included: an upper bound), for the search's wait (pyramid/keeper). */
function writtenSize(inputs: readonly unknown[]): WrittenSize {
  let chars = 0;
  for (const input of inputs) {
    const text = (input as { text?: unknown } | null)?.text;
    if (typeof text === "string") chars += text.length;
  }
  return { memories: inputs.length, chars };
}
