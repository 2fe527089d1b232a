/**
 * @module ingest/context
 * Conversational context. A turn is often meaningless alone ("Yes, last Saturday!") and answers the turn
 * before it, which holds the words a later question uses. So the turn before, in the same session, is indexed
 * with each turn — lexical indexes only, after the turn's own text — and never shown as its text. On LoCoMo this
 * raised fused Recall@10 from 0.668 to 0.72-0.73 (docs/BENCHMARKS.md). Forgetting the earlier turn strips it from
 * the later one's index.
 */
import { withSpeaker } from "../text/speaker.js";
import { sameScope, scopeOf, type Scope } from "../model/scope.js";
import type { TurnContext } from "../model/types.js";

/** Context is cut here: the words that matter are in the first sentences of a turn. */
export const MAX_CONTEXT_CHARS = 400;

export function contextSuffix(c: TurnContext): string {
  const text = c.text.length > MAX_CONTEXT_CHARS ? c.text.slice(0, MAX_CONTEXT_CHARS) : c.text;
  return `\n${withSpeaker(c.speaker, text)}`;
}

export interface SessionTurn extends Scope {
  session: string | null;
  at: string;
  speaker: string | null;
  text: string;
}

/**
 * For each memory of a batch, the turn it follows in its session and scope: the latest earlier item of the batch
 * (named by `batchIndex`, as it has no id yet), or else what `fromStore` finds. Memories without a session get
 * none; another user's turn in a shared session is never indexed as this one's words (model/scope.ts).
 */
export async function sessionContexts(
  batch: SessionTurn[],
  fromStore: (session: string, at: string, scope: Scope) => Promise<TurnContext | null>,
): Promise<((TurnContext & { batchIndex?: number }) | null)[]> {
  const out: ((TurnContext & { batchIndex?: number }) | null)[] = [];
  for (const [i, memory] of batch.entries()) {
    if (!memory.session) {
      out.push(null);
      continue;
    }
    let best: number | null = null;
    for (let j = 0; j < i; j++) {
      const other = batch[j];
      if (other.session === memory.session && sameScope(other, memory) && other.at <= memory.at && (best === null || other.at >= batch[best].at)) best = j;
    }
    out.push(best !== null ? { id: "", speaker: batch[best].speaker, text: batch[best].text, batchIndex: best } : await fromStore(memory.session, memory.at, scopeOf(memory)));
  }
  return out;
}
