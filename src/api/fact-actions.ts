/**
 * @module api/fact-actions
 * rememberMessages: chat messages stored as turns, then (with a fact extractor) the atomic facts a model states
 * about them, each stored as a memory of kind `fact` that goes through revision detection like any other, and
 * linked to the messages it came from by `derived_from` edges. So a later fact that reverses an earlier one
 * supersedes it, and every fact can be traced to what was said.
 */
import { CascadeError, invalidInput } from "../errors.js";
import type { ExtractedFact, FactExtractor } from "../ingest/fact-extractor.js";
import { sameScope, type Scope } from "../model/scope.js";
import type { EdgeDraft } from "../model/graph.js";
import type { MemoryInput } from "../model/types.js";
import type { Store } from "../ports/store.js";
import type { BatchResult, WritePath } from "./write-path.js";

export interface MessagesResult extends Omit<BatchResult, "warnings"> {
  /** As a batch's, and `facts`: the facts of these stored messages could not be extracted or stored (not retried). */
  warnings: (BatchResult["warnings"][number] | { index: number; step: "facts"; reason: string })[];
  /** The facts stored, each with the messages it came from. */
  facts: { id: string; text: string; derived_from: string[] }[];
}

export interface FactDeps {
  store: Store;
  writes: WritePath;
  extractor: FactExtractor | null;
  now: () => number;
}

export async function rememberMessages(deps: FactDeps, messages: readonly MemoryInput[], options: { extract?: boolean } = {}): Promise<MessagesResult> {
  if (options.extract === true && !deps.extractor) throw invalidInput("extract", "no fact extractor is configured (engine.facts.chat in the config file)");
  const written = await deps.writes.write(messages, { provenance: "api" });
  const result: MessagesResult = { ...written, facts: [] };
  if (options.extract === false || !deps.extractor) return result;
  const stored = written.ids.flatMap((id, i) => (id ? [{ id, message: messages[i] }] : []));
  if (stored.length === 0) return result;
  try {
    await addFacts({ ...deps, extractor: deps.extractor }, stored, result);
  } catch (err) {
    // the messages are committed: facts that could not be extracted or stored (a chat model down, a full disk) are
    // a warning on each message, never an error saying the messages were not stored
    if (err instanceof CascadeError && err.isUsageError) throw err;
    const reason = `${err instanceof CascadeError ? `${err.code}: ` : ""}${err instanceof Error ? err.message : String(err)}`.slice(0, 300);
    written.ids.forEach((id, index) => id && result.warnings.push({ index, step: "facts", reason }));
  }
  return result;
}

/** Extracts the facts of the stored messages and stores them, each `derived_from` its messages. */
async function addFacts(deps: FactDeps & { extractor: FactExtractor }, stored: { id: string; message: MemoryInput }[], result: MessagesResult): Promise<void> {
  const memories = await Promise.all(stored.map((s) => deps.store.getMemory(s.id)));
  // a fact joins what its messages say, so it is read from one scope's messages at a time (model/scope.ts)
  const facts: ExtractedFact[] = [];
  for (const group of groupByScope(memories.map((m) => m!))) {
    const found = await deps.extractor.extract(group.map((i) => ({ speaker: memories[i]!.speaker, text: memories[i]!.text })));
    facts.push(...found.map((f) => ({ ...f, sources: f.sources.map((s) => group[s]) })));
  }
  if (facts.length === 0) return;
  const inputs: MemoryInput[] = facts.map((f) => {
    const sources = f.sources.map((i) => memories[i]!);
    const latest = sources.reduce((a, b) => (Date.parse(b.at) > Date.parse(a.at) ? b : a));
    return {
      text: f.text,
      kind: "fact",
      at: latest.at,
      ...(latest.session ? { session: latest.session } : {}),
      ...(latest.user ? { user: latest.user } : {}),
      ...(latest.agent ? { agent: latest.agent } : {}),
      metadata: { extracted_by: deps.extractor.id },
    };
  });
  const factIds = (await deps.writes.write(inputs, { provenance: "api" })).ids;
  const drafts: EdgeDraft[] = [];
  facts.forEach((f, i) => {
    const id = factIds[i];
    if (!id) return;
    const derived = f.sources.map((s) => stored[s].id);
    for (const to of derived) {
      drafts.push({ type: "derived_from", from: id, to, validFrom: Date.parse(inputs[i].at!), validTo: null, recordedAt: deps.now(), provenance: "llm", confidence: 1, reason: null });
    }
    result.facts.push({ id, text: f.text, derived_from: derived });
  });
  if (drafts.length) await deps.store.addEdges(drafts);
}

/** The indexes of the memories, grouped by scope in order of first appearance. */
function groupByScope(memories: Scope[]): number[][] {
  const groups: number[][] = [];
  memories.forEach((m, i) => {
    const group = groups.find((g) => sameScope(memories[g[0]], m));
    if (group) group.push(i);
    else groups.push([i]);
  });
  return groups;
}
