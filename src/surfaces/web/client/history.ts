/**
 * @module web/client/history
 * One memory and its supersession history (GET /v1/memories/{id} and …/history): the chain oldest to newest with
 * each link's validity, and every edge with its validity, record time and provenance; retracted edges are struck
 * out, not hidden, because they are part of what Cascade once believed.
 */
import { api, qs } from "./api.js";
import { clear, field, h, historyLink, input } from "./dom.js";
import { replaceHash, type PanelContext } from "./panel.js";

export async function renderHistory(root: HTMLElement, ctx: PanelContext): Promise<void> {
  const idInput = input("history-id", { placeholder: "m_01…", size: 34 });
  const asOf = input("history-as-of", { placeholder: "now" });
  const knownAt = input("history-known-at", { placeholder: "now" });
  const form = h(
    "form",
    { id: "history-form" },
    h("h2", { tabindex: -1 }, "History"),
    h("div", { class: "row" }, field("Memory id", idInput), field("As of", asOf, "ISO 8601: statuses at this world time"), field("Known at", knownAt, "ISO 8601: what Cascade knew then"), h("button", { type: "submit", class: "primary" }, "Show history")),
  );
  const out = h("section", { id: "history-view", "aria-label": "History" });
  root.append(form, out);
  idInput.value = ctx.arg;
  asOf.value = ctx.params.get("as_of") ?? "";
  knownAt.value = ctx.params.get("known_at") ?? "";
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    location.hash = `#history/${encodeURIComponent(idInput.value.trim())}${qs({ as_of: asOf.value.trim(), known_at: knownAt.value.trim() })}`;
  });
  if (!ctx.arg) {
    out.append(h("p", { class: "muted" }, "Type a memory id, or follow a history link from Search or the Timeline."));
    return;
  }
  const id = ctx.arg;
  const time = qs({ as_of: ctx.params.get("as_of") ?? undefined, known_at: ctx.params.get("known_at") ?? undefined });
  replaceHash(`#history/${encodeURIComponent(id)}${time}`);
  const [memory, history] = await Promise.all([api("GET", `/v1/memories/${encodeURIComponent(id)}`), api("GET", `/v1/memories/${encodeURIComponent(id)}/history${time}`)]);
  if (!ctx.current()) return;
  clear(out);
  out.append(
    h("h3", {}, memory.title ?? `${memory.kind} ${memory.id}`),
    h("p", { class: "muted" }, [memory.kind, memory.at, memory.speaker, memory.topic, `recorded ${memory.recorded_at}`].filter(Boolean).join(" · ")),
    placementNote(memory.metadata?.placement) ?? "",
    h("div", { class: "text", id: "history-text" }, memory.text),
    memory.children?.length ? h("p", { class: "muted" }, `children: `, memory.children.map((c: string) => [historyLink(c), " "])) : "",
    h("h3", {}, `Chain (${history.chain.length})`),
    h(
      "ol",
      { class: "chain", id: "history-chain" },
      history.chain.map((c: any) =>
        h(
          "li",
          { "data-id": c.id, "data-status": c.status, "aria-current": c.id === id ? "true" : null },
          h("span", { class: `badge status-${c.status}` }, c.status),
          " ",
          c.id === id ? h("strong", {}, c.id) : historyLink(c.id, c.id),
          h("span", { class: "muted" }, ` valid ${c.valid_from} → ${c.valid_to ?? "open"}`),
          h("div", { class: "text" }, c.text),
        ),
      ),
    ),
    h("h3", {}, `Edges (${history.edges.length})`),
    history.edges.length === 0
      ? h("p", { class: "muted" }, "No edge touches this memory.")
      : h(
          "table",
          { id: "history-edges" },
          h("caption", { class: "muted" }, "Every edge of the chain; retracted ones are struck out"),
          h("thead", {}, h("tr", {}, ["type", "from", "to", "valid from", "valid to", "recorded at", "retracted at", "provenance", "confidence", "reason"].map((t) => h("th", { scope: "col" }, t)))),
          h(
            "tbody",
            {},
            history.edges.map((e: any) =>
              h(
                "tr",
                { class: e.retracted_at ? "retracted" : "", "data-edge": e.id },
                h("td", {}, e.retracted_at ? h("s", {}, e.type) : e.type),
                h("td", {}, historyLink(e.from)),
                h("td", {}, historyLink(e.to)),
                h("td", {}, e.valid_from),
                h("td", {}, e.valid_to ?? "open"),
                h("td", {}, e.recorded_at),
                h("td", {}, e.retracted_at ?? "—"),
                h("td", {}, e.provenance),
                h("td", {}, String(e.confidence)),
                h("td", {}, e.reason ?? ""),
              ),
            ),
          ),
        ),
  );
}

/**
 * What automatic placement decided (`metadata.placement`), or nothing when the memory was not placed
 * automatically: "placed automatically …" or, when no topic fitted, "not placed: nearest X, similarity Y". A memory
 * placed before abstention has no `abstained` field; its `unsorted` topic meant the same.
 */
function placementNote(p: any): HTMLElement | null {
  if (!p || typeof p !== "object") return null;
  const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? String(Number(v.toFixed(2))) : null);
  const similarity = num(p.similarity);
  const abstained = p.abstained === true || (p.abstained === undefined && (p.topic === "unsorted" || p.topic === null));
  let text: string;
  if (abstained) {
    const nearest = typeof p.nearest === "string" ? `nearest ${p.nearest}${similarity !== null ? `, similarity ${similarity}` : ""}` : "no topic fitted";
    text = `not placed: ${nearest}`;
  } else {
    const confidence = num(p.confidence);
    text = ["placed automatically", typeof p.topic === "string" ? `to ${p.topic}` : null, confidence !== null ? `confidence ${confidence}` : null, similarity !== null ? `similarity ${similarity}` : null]
      .filter(Boolean)
      .join(", ");
  }
  return h("p", { class: "muted", id: "history-placement" }, text);
}
