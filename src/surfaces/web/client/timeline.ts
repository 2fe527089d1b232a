/**
 * @module web/client/timeline
 * Memories in time order (GET /v1/memories, a page at a time) with their typed edges drawn between them, and two
 * sliders that replay the store: "as of" (world time: what was true then) and "known at" (record time: what
 * Cascade had been told by then). Each move asks the server again, so the status shown is the server's, read by
 * the same rule search uses; the page only draws it. Memories that had not happened by "as of", or had not been
 * recorded by "known at", are shown faded.
 */
import { api, qs } from "./api.js";
import { clear, countOf, field, h, historyLink, input, shortId, svg } from "./dom.js";
import { replaceHash, type PanelContext } from "./panel.js";

interface Listed {
  id: string;
  kind: string;
  text: string;
  title: string | null;
  topic: string | null;
  speaker: string | null;
  at: string;
  recorded_at: string;
  status: string;
  superseded_by: string[];
  supersedes: string[];
}
interface EdgeJson {
  id: string;
  type: string;
  from: string;
  to: string;
  valid_from: string;
  valid_to: string | null;
  recorded_at: string;
  retracted_at: string | null;
  in_force: boolean;
}

const HOUR = 3_600_000;
const FILTERS: [key: string, label: string, hint: string][] = [
  ["under", "Topic", "a topic path: it and everything below it"],
  ["speaker", "Speaker", "one or more, comma-separated"],
  ["kind", "Kind", "e.g. decision, note, turn (comma-separated)"],
  ["since", "Since", "ISO 8601"],
  ["until", "Until", "ISO 8601, exclusive"],
];
const EDGE_COLOURS: Record<string, string> = { supersedes: "#b4580b", contradicts: "#b3261e", refines: "#2457c5", derived_from: "#6b3fb5", summarizes: "#47617a", relates_to: "#0f7b6c" };

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.000Z$/, "Z");

export async function renderTimeline(root: HTMLElement, ctx: PanelContext): Promise<void> {
  const filters = h(
    "form",
    { id: "timeline-filters" },
    h("h2", { tabindex: -1 }, "Timeline"),
    h("fieldset", {}, h("legend", {}, "Filter"), h("div", { class: "grid" }, FILTERS.map(([k, label, hint]) => field(label, input(`tl-${k}`, { placeholder: hint.split(",")[0] }), hint)), field("Page size", input("tl-limit", { type: "number", min: 1, max: 1000, value: 100 })), field("Order", h("select", { id: "tl-order", name: "tl-order" }, h("option", { value: "asc" }, "oldest first"), h("option", { value: "desc" }, "newest first")))), h("button", { type: "submit" }, "Apply")),
  );
  const asOfRange = input("as-of", { type: "range", step: HOUR });
  const knownRange = input("known-at", { type: "range", step: HOUR });
  const asOfText = input("as-of-text", { size: 22 });
  const knownText = input("known-at-text", { size: 22 });
  const sliders = h(
    "fieldset",
    { class: "sliders", id: "timeline-sliders" },
    h("legend", {}, "Replay"),
    h("div", {}, h("label", { for: "as-of" }, "As of (world time): what was true then"), asOfRange, field("As of, ISO", asOfText)),
    h("div", {}, h("label", { for: "known-at" }, "Known at (record time): what Cascade had been told"), knownRange, field("Known at, ISO", knownText)),
  );
  const list = h("div", { class: "timeline", id: "timeline-list" });
  const more = h("button", { type: "button", id: "timeline-more", hidden: true }, "Load more");
  const summary = h("p", { class: "muted", id: "timeline-summary", "aria-live": "polite" });
  root.append(filters, sliders, summary, list, more);

  for (const [k] of FILTERS) (filters.querySelector(`#tl-${k}`) as HTMLInputElement).value = ctx.params.get(k) ?? "";
  if (ctx.params.get("limit")) (filters.querySelector("#tl-limit") as HTMLInputElement).value = ctx.params.get("limit")!;
  if (ctx.params.get("order") === "desc") (filters.querySelector("#tl-order") as HTMLSelectElement).value = "desc";
  asOfText.value = ctx.params.get("as_of") ?? "";
  knownText.value = ctx.params.get("known_at") ?? "";

  let memories: Listed[] = [];
  let edges = new Map<string, EdgeJson>();
  let cursor: string | null = null;

  const query = (withTime: boolean) => {
    const v = (k: string) => (filters.querySelector(`#tl-${k}`) as HTMLInputElement).value.trim();
    const p: Record<string, string | string[] | undefined> = {};
    for (const [k] of FILTERS) p[k] = k === "kind" || k === "speaker" ? v(k).split(",").map((s) => s.trim()).filter(Boolean) : v(k);
    p.limit = v("limit");
    p.order = (filters.querySelector("#tl-order") as HTMLSelectElement).value === "desc" ? "desc" : undefined;
    if (withTime) {
      p.as_of = asOfText.value.trim();
      p.known_at = knownText.value.trim();
    }
    return p;
  };

  /**
   * Slider bounds: from an hour before the first memory that passes the filters to the last memory's event or
   * record time (the far end is asked for separately, so the sliders span every page, not just this one).
   */
  const setBounds = async () => {
    if (memories.length === 0) return;
    const p = query(false);
    const far = await api("GET", `/v1/memories${qs({ ...p, limit: "1", order: p.order === "desc" ? "asc" : "desc" })}`);
    const ends = [...memories, ...(far.memories as Listed[])];
    const ats = ends.map((m) => Date.parse(m.at));
    const recs = ends.map((m) => Date.parse(m.recorded_at));
    const lo = Math.floor(Math.min(...ats) / HOUR) * HOUR - HOUR;
    const hi = Math.ceil(Math.max(...ats, ...recs) / HOUR) * HOUR;
    for (const r of [asOfRange, knownRange]) {
      r.min = String(lo);
      r.max = String(hi);
    }
    asOfRange.value = String(asOfText.value ? Date.parse(asOfText.value) || hi : hi);
    knownRange.value = String(knownText.value ? Date.parse(knownText.value) || hi : hi);
  };

  /** Loads the first page (or the next one, with `append`); `rebound` when the filters changed. */
  const load = async (append: boolean, rebound = false) => {
    ctx.clearError();
    const p = query(true);
    if (append && cursor) p.cursor = cursor;
    replaceHash(`#timeline${qs({ ...query(true), limit: p.limit === "100" ? undefined : p.limit })}`);
    try {
      const r = await api("GET", `/v1/memories${qs(p)}`);
      if (!ctx.current()) return;
      memories = append ? [...memories, ...r.memories] : r.memories;
      if (!append) edges = new Map();
      for (const e of r.edges as EdgeJson[]) edges.set(e.id, e);
      cursor = r.next_cursor;
      more.hidden = !cursor;
      if (rebound) await setBounds();
      draw();
    } catch (err) {
      ctx.showError(err);
    }
  };

  const draw = () => {
    clear(list);
    const asOf = asOfText.value ? Date.parse(asOfText.value) : Infinity;
    const knownAt = knownText.value ? Date.parse(knownText.value) : Infinity;
    const current = memories.filter((m) => m.status === "current" && Date.parse(m.at) <= asOf && Date.parse(m.recorded_at) <= knownAt).length;
    summary.textContent = `${countOf(memories.length, "memory")}${cursor ? " (more to load)" : ""} · ${current} current` + (asOfText.value || knownText.value ? ` as of ${asOfText.value || "now"}, known at ${knownText.value || "now"}` : "");
    const shown = new Set(memories.map((m) => m.id));
    const items = memories.map((m) => {
      const future = Date.parse(m.at) > asOf;
      const unknown = Date.parse(m.recorded_at) > knownAt;
      const out = [...edges.values()].filter((e) => e.from === m.id || e.to === m.id);
      return h(
        "article",
        { class: `tl-item${future ? " future" : ""}${unknown ? " unknown" : ""}`, "data-id": m.id, "data-status": m.status, "aria-label": `${m.title ?? m.kind} at ${m.at}` },
        h(
          "div",
          { class: "row" },
          h("time", { datetime: m.at }, m.at.replace("T", " ").replace(/:00Z$/, "Z")),
          h("span", { class: `badge status-${m.status}` }, future ? "not yet happened" : unknown ? "not yet recorded" : m.status),
          h("span", { class: "muted" }, [m.kind, m.speaker, m.topic].filter(Boolean).join(" · ")),
          m.title ? h("strong", {}, m.title) : null,
        ),
        h("div", { class: "text" }, m.text.length > 280 ? `${m.text.slice(0, 280)}…` : m.text),
        h(
          "div",
          { class: "muted" },
          historyLink(m.id, `history of ${shortId(m.id)}`),
          out.map((e) => {
            const other = e.from === m.id ? e.to : e.from;
            const verb = e.from === m.id ? e.type : `${e.type} (by)`;
            return h("span", { class: e.retracted_at ? "retracted" : "" }, ` · ${verb} `, historyLink(other), shown.has(other) ? "" : " (not on this page)", e.in_force ? "" : " (not in force)");
          }),
        ),
      );
    });
    list.append(...items);
    drawEdges(list, items, [...edges.values()]);
  };

  let timer = 0;
  const onSlide = (range: HTMLInputElement, text: HTMLInputElement) => {
    text.value = iso(Number(range.value));
    window.clearTimeout(timer);
    timer = window.setTimeout(() => void load(false), 120);
  };
  asOfRange.addEventListener("input", () => onSlide(asOfRange, asOfText));
  knownRange.addEventListener("input", () => onSlide(knownRange, knownText));
  for (const [text, range] of [[asOfText, asOfRange], [knownText, knownRange]] as const) {
    text.addEventListener("change", () => {
      const ms = Date.parse(text.value);
      if (Number.isFinite(ms)) range.value = String(ms);
      void load(false); // an invalid date goes to the API, which says what is wrong with it
    });
  }
  filters.addEventListener("submit", (e) => {
    e.preventDefault();
    void load(false, true);
  });
  more.addEventListener("click", () => void load(true));
  await load(false, true);
}

/** Curves in the left gutter from each edge's source row to its target row (both must be on screen). */
function drawEdges(list: HTMLElement, items: HTMLElement[], edges: EdgeJson[]): void {
  const y = new Map(items.map((el) => [el.dataset.id!, el.offsetTop + Math.min(18, el.offsetHeight / 2)]));
  const height = list.scrollHeight;
  const marker = svg("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 6, markerHeight: 6, orient: "auto-start-reverse" }, svg("path", { d: "M0,0 L10,5 L0,10 z", fill: "context-stroke" }));
  const g = svg("svg", { class: "edges", "aria-hidden": "true", height, width: 136 }, svg("defs", {}, marker));
  edges.forEach((e, i) => {
    const y1 = y.get(e.from);
    const y2 = y.get(e.to);
    if (y1 === undefined || y2 === undefined) return;
    const bend = 130 - Math.min(110, 12 + Math.abs(y1 - y2) / 8 + (i % 4) * 6);
    const path = svg("path", {
      d: `M134,${y1} C${bend},${y1} ${bend},${y2} 134,${y2}`,
      fill: "none",
      stroke: EDGE_COLOURS[e.type] ?? "#555",
      "stroke-width": e.in_force ? 2.5 : 1.5,
      "stroke-dasharray": e.retracted_at ? "2 4" : e.in_force ? "0" : "6 4",
      "marker-end": "url(#arrow)",
      "data-edge": e.id,
      "data-type": e.type,
    });
    path.appendChild(svg("title", {}, document.createTextNode(`${e.from} ${e.type} ${e.to}${e.in_force ? "" : " (not in force)"}`)));
    g.appendChild(path);
  });
  list.prepend(g);
}
