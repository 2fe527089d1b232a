/**
 * @module query/summary-sentences
 * A summary's sentences as one reader may see them. Each window has a node for the whole namespace and one per user
 * and per agent (pyramid/scopes.ts); a filtered read takes its scope's nodes (`nodeScopeOf`), so Bob's week is
 * chosen from Bob's days. Every sentence also names the memories it came from, and a read keeps only the sentences
 * whose every source passes the reader's filter (a second guard: a node of the whole namespace read under a filter
 * that names no one user still shows nobody else's), and marks a sentence whose source a later memory superseded,
 * or whose statement a later memory revised — the summary was right when written, the graph says what changed since.
 */
import { supersessionOf, type RevisedStatement } from "../graph/status.js";
import type { GraphTime } from "../model/graph.js";
import type { ShownSentence, SummarySentence } from "../model/pyramid.js";
import type { SearchFilter } from "../model/types.js";
import type { Store } from "../ports/store.js";
import { withSpeaker } from "../text/speaker.js";
import { memoriesPassing } from "./filter.js";
import type { Scope } from "../model/scope.js";

/**
 * The nodes a filtered read takes: one user's when the filter names exactly one user (`user=bob`, or an exact
 * scope with a user), else one agent's when it names exactly one agent, else the whole namespace's.
 */
export function nodeScopeOf(filter: SearchFilter | undefined): Scope {
  const one = (field: "user" | "agent"): string | null => {
    const exact = filter?.scope?.[field];
    if (exact) return exact;
    for (const c of filter?.where ?? []) {
      if (!("scope" in c.field) || c.field.scope !== field) continue;
      const v = c.op === "eq" ? c.value : c.op === "in" && Array.isArray(c.value) && c.value.length === 1 ? c.value[0] : undefined;
      if (typeof v === "string" || typeof v === "number") return String(v);
    }
    return null;
  };
  const user = one("user");
  if (user !== null) return { user, agent: null };
  const agent = one("agent");
  return agent !== null ? { user: null, agent } : { user: null, agent: null };
}

export interface SentenceReading {
  /** Only sentences whose every source exists and passes this filter; absent: every sentence. */
  filter?: SearchFilter;
  /** Status in both times (see graph/status.ts). */
  time: GraphTime;
  /** Leave superseded sentences out instead of marking them. */
  currentOnly: boolean;
}

/** The sentences the reader may see, in their order, each with its status at `time`. */
export async function readSentences(store: Store, sentences: SummarySentence[], reading: SentenceReading): Promise<ShownSentence[]> {
  let kept = sentences;
  if (reading.filter) {
    const allowed = await memoriesPassing(store, new Set(sentences.flatMap((s) => s.sources)), reading.filter);
    kept = sentences.filter((s) => s.sources.length > 0 && s.sources.every((id) => allowed.has(id)));
  }
  const ids = [...new Set(kept.flatMap((s) => s.sources))];
  const status = ids.length ? supersessionOf(ids, await store.edgesTouching(ids, "supersedes"), reading.time) : new Map();
  const shown = kept.map((s): ShownSentence => {
    // a successor the sentence itself quotes (an abstract of the whole change) does not make it stale
    // so does a later memory that revised this very statement of a source that is otherwise still current
    const revisedBy = s.sources.flatMap((id) => (status.get(id)?.revised ?? []).filter((r: RevisedStatement) => sameStatement(r.statement, s.text)).map((r: RevisedStatement) => r.by));
    const by = [...new Set([...s.sources.flatMap((id) => status.get(id)?.supersededBy ?? []), ...revisedBy])].filter((id) => !s.sources.includes(id));
    return { ...s, status: by.length ? "superseded" : "current", superseded_by: by };
  });
  return reading.currentOnly ? shown.filter((s) => s.status === "current") : shown;
}

/** Whether a revised statement is this sentence (one may hold the other: a clause, or a sentence cut differently). */
function sameStatement(statement: string, sentence: string): boolean {
  const norm = (t: string) => t.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();
  const a = norm(statement);
  const b = norm(sentence);
  return a.length > 0 && b.length > 0 && (a === b || a.includes(b) || b.includes(a));
}

/** What replaced a sentence's source, as its reader sees it (`[superseded by m_…]`); empty when it is current. */
export const supersededMark = (s: ShownSentence): string => (s.status === "superseded" ? `[superseded by ${s.superseded_by.join(", ")}]` : "");

/** A sentence as a person reads it: its speaker, and what replaced it when something did. */
export function sentenceLine(s: ShownSentence): string {
  const line = withSpeaker(s.speaker, s.text);
  return s.status === "superseded" ? `${line} ${supersededMark(s)}` : line;
}
