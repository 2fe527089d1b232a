/**
 * @module api/restore
 * Reads an export (api/export.ts) back into a store: each memory keeps its id and both its times, its
 * corrections are replayed oldest first (so its history says what it said before, and when that changed), and
 * its edges keep their ids and times, retracted ones too. Edges are written once every memory is in, since an
 * edge may name a memory further down the file. A memory or edge the store already holds is skipped, so an
 * export imported twice changes nothing. Revision detection and topic placement do not run: what the export
 * says about the graph and the topics is the truth being restored.
 */
import { z } from "zod";
import { prepareMemories } from "../ingest/prepare.js";
import { validateMemoryInput } from "../ingest/validate-memory.js";
import { EDGE_TYPES, PROVENANCES, type Edge } from "../model/graph.js";
import type { Embedder } from "../ports/embedder.js";
import type { EmbedderStamp, Store } from "../ports/store.js";
import { parseInstant } from "../time/iso.js";
import { parseWith } from "../validate.js";
import type { BatchResult } from "./write-path.js";

const instant = z.string({ error: "required, an ISO 8601 time" });

const edgeSchema = z
  .object({
    id: z.string().min(1),
    type: z.enum(EDGE_TYPES),
    to: z.string().min(1),
    valid_from: instant,
    valid_to: instant.nullable().optional(),
    recorded_at: instant,
    retracted_at: instant.nullable().optional(),
    provenance: z.enum(PROVENANCES),
    confidence: z.number().min(0).max(1),
    reason: z.string().nullable().optional(),
    statement: z.string().min(1).nullable().optional(),
  })
  .strict();

/** The fields an export adds to a memory's input (api/export.ts); the rest is checked as any memory input. */
const exportedSchema = z
  .object({
    id: z.string().regex(/^m_[0-9A-Za-z]{1,64}$/, "a memory id such as m_01J…"),
    recorded_at: instant,
    corrections: z.array(z.object({ recorded_at: instant, previous: z.record(z.string(), z.unknown()) }).strict()).optional(),
    edges: z.array(edgeSchema).optional(),
  })
  .loose();

/** Whether a parsed line is an exported memory (it carries an id and its record time) rather than a new memory's input. */
export function isExportedMemory(line: unknown): boolean {
  return typeof line === "object" && line !== null && "id" in line && "recorded_at" in line;
}

export interface RestoreDeps {
  store: Store;
  embedder: Embedder;
  stamp: EmbedderStamp;
}

const withoutNulls = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null));

/** Restores exported memories batch by batch (`add`), then their edges (`finish`). */
export class Restorer {
  private readonly edges: { index: number; edge: Edge }[] = [];
  private readonly result: BatchResult = { imported: 0, skipped: 0, ids: [], failed: [], warnings: [] };
  private seen = 0;
  /** Whether anything was written (the pyramid then has windows to refresh). */
  wrote = false;

  constructor(private readonly deps: RestoreDeps) {}

  /** Writes these exported memories (their indexes continue from the previous batch's). */
  async add(lines: unknown[]): Promise<void> {
    for (const line of lines) {
      const index = this.seen++;
      try {
        this.result.ids.push(await this.restoreOne(line, index));
      } catch (err) {
        this.result.ids.push(null);
        this.result.failed.push({ index, error: err instanceof Error ? err.message : String(err) });
      }
    }
  }

  /** Writes the edges of every memory added; an edge whose other end is in neither the file nor the store fails its line. */
  async finish(): Promise<BatchResult> {
    const { store } = this.deps;
    for (const { index, edge } of this.edges) {
      try {
        const held = await store.edgesTouching([edge.from]);
        if (held.some((e) => e.id === edge.id)) continue;
        await store.copy.write("edges", [edge]);
        this.wrote = true;
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        this.result.failed.push({ index, error: `edges: ${edge.id} (${edge.type} ${edge.to}) was not restored: ${message}` });
      }
    }
    this.result.failed.sort((a, b) => a.index - b.index);
    return this.result;
  }

  private async restoreOne(line: unknown, index: number): Promise<string> {
    const { id, recorded_at, corrections = [], edges = [], ...input } = parseWith(exportedSchema, line) as z.infer<typeof exportedSchema> & Record<string, unknown>;
    const recordedAt = parseInstant("recorded_at", recorded_at);
    const { store, embedder, stamp } = this.deps;
    for (const e of edges) {
      this.edges.push({
        index,
        edge: {
          id: e.id,
          type: e.type,
          from: id,
          to: e.to,
          validFrom: parseInstant("edges.valid_from", e.valid_from),
          validTo: e.valid_to ? parseInstant("edges.valid_to", e.valid_to) : null,
          recordedAt: parseInstant("edges.recorded_at", e.recorded_at),
          retractedAt: e.retracted_at ? parseInstant("edges.retracted_at", e.retracted_at) : null,
          provenance: e.provenance,
          confidence: e.confidence,
          reason: e.reason ?? null,
          statement: e.statement ?? null,
        },
      });
    }
    if (await store.getMemory(id)) {
      this.result.skipped++;
      return id;
    }
    // the states it went through, oldest first: what it said before each correction, then what it says now
    const current = withoutNulls(input);
    const states = [...corrections.map((c) => ({ ...current, ...withoutNulls(c.previous) })), current];
    const valid = states.map((s) => validateMemoryInput(s, recordedAt));
    const prepared = await prepareMemories(valid, embedder, recordedAt);
    for (const p of prepared) p.memory.id = id;
    await store.writeMemories([prepared[0]], stamp);
    for (const [i, c] of corrections.entries()) await store.reviseMemory(prepared[i + 1], stamp, parseInstant("corrections.recorded_at", c.recorded_at));
    this.result.imported++;
    this.wrote = true;
    return id;
  }
}

/**
 * A Restorer as the Engine hands it out: each batch waits for the pyramid's pending refresh (`settle`) first, and
 * the pyramid is kept current (`afterWrite`) once the edges are in, when anything was written.
 */
export function engineRestorer(deps: RestoreDeps, settle: () => Promise<unknown>, afterWrite: (memories: number) => Promise<void>): { add: (records: unknown[]) => Promise<void>; finish: () => Promise<BatchResult> } {
  const restorer = new Restorer(deps);
  return {
    add: async (records) => {
      await settle();
      await restorer.add(records);
    },
    finish: async () => {
      const result = await restorer.finish();
      if (restorer.wrote) await afterWrite(result.imported);
      return result;
    },
  };
}
