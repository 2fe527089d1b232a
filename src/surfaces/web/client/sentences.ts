/**
 * @module web/client/sentences
 * A summary's sentences as the pyramid and a search's context show them: each with its speaker, the memories it
 * came from, and — when a later memory replaced one of them — a "superseded by" badge linking to the successor.
 */
import { h, historyLink } from "./dom.js";

export interface SentenceJson {
  text: string;
  speaker: string | null;
  sources: string[];
  status?: "current" | "superseded";
  superseded_by?: string[];
}

export function sentenceList(sentences: SentenceJson[]): HTMLElement {
  return h(
    "ul",
    { class: "sentences" },
    sentences.map((s) =>
      h(
        "li",
        { "data-status": s.status ?? "current" },
        s.speaker ? h("strong", {}, `${s.speaker}: `) : null,
        s.text,
        s.status === "superseded" ? [" ", h("span", { class: "badge status-superseded" }, "superseded by ", (s.superseded_by ?? []).map((id, i) => [i ? ", " : "", historyLink(id)]))] : null,
        h("span", { class: "muted" }, " — from "),
        s.sources.map((id, i) => [i ? ", " : "", historyLink(id)]),
      ),
    ),
  );
}
