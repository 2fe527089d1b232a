/**
 * @module query/summary-sentences
 * A summary's sentences as one reader may see them. The pyramid is kept once per namespace, not once per scope:
 * a day of Alice's and Bob's turns has one summary. What makes that safe is that every sentence names the
 * memories it came from, so a read keeps only the sentences whose every source passes the reader's filter (a
 * window whose members are all out of scope shows nothing), and marks a sentence whose source a later memory
 * superseded — the summary was right when written, the graph says what changed since.
 */
import { supersessionOf } from "../graph/status.js";
import type { GraphTime } from "../model/graph.js";
import type { ShownSentence, SummarySentence } from "../model/pyramid.js";
import type { SearchFilter } from "../model/types.js";
import type { Store } from "../ports/store.js";
import { withSpeaker } from "../text/speaker.js";
import { memoriesPassing } from "./filter.js";

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
    const by = [...new Set(s.sources.flatMap((id) => status.get(id)?.supersededBy ?? []))].filter((id) => !s.sources.includes(id));
    return { ...s, status: by.length ? "superseded" : "current", superseded_by: by };
  });
  return reading.currentOnly ? shown.filter((s) => s.status === "current") : shown;
}

/** What replaced a sentence's source, as its reader sees it (`[superseded by m_…]`); empty when it is current. */
export const supersededMark = (s: ShownSentence): string => (s.status === "superseded" ? `[superseded by ${s.superseded_by.join(", ")}]` : "");

/** A sentence as a person reads it: its speaker, and what replaced it when something did. */
export function sentenceLine(s: ShownSentence): string {
  const line = withSpeaker(s.speaker, s.text);
  return s.status === "superseded" ? `${line} ${supersededMark(s)}` : line;
}
