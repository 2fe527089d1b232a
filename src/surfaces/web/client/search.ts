/**
 * @module web/client/search
 * The search panel: a form with every option of POST /v1/search, and the hits with their channel ranks, RRF
 * arithmetic, status, supersession neighbours, topic and adjustments. The form's state lives in the URL
 * (`#search?query=…&k=…`), so a search can be shared and reloaded.
 */
import { api, ApiError } from "./api.js";
import { clear, field, h, historyLink, input, shortId } from "./dom.js";
import { replaceHash, type PanelContext } from "./panel.js";
import { rankBars, type ChannelsJson, type HitJson } from "./rank-bars.js";
import { sentenceList } from "./sentences.js";

const FALLBACK_CHANNELS = ["bm25", "dense", "curated", "recency", "colbert", "time"];
let channelNames: string[] | null = null;

/** The channel names the server accepts, read from its OpenAPI document (a new channel appears by itself). */
async function loadChannels(): Promise<string[]> {
  if (channelNames) return channelNames;
  try {
    const doc = await api("GET", "/openapi.json");
    const schema = doc.paths["/v1/search"].post.requestBody.content["application/json"].schema;
    const names = schema.properties.channels.items.enum as string[];
    channelNames = Array.isArray(names) && names.length ? names : FALLBACK_CHANNELS;
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) throw err; // the token prompt, not a silent fallback
    channelNames = FALLBACK_CHANNELS;
  }
  return channelNames;
}

const TEXT_OPTIONS: [key: string, label: string, hint: string][] = [
  ["under", "Topic (under)", "a topic path: it and everything below it, e.g. ops"],
  ["match", "Topic pattern (match)", "an lquery such as *.config.*"],
  ["kinds", "Kinds", "comma-separated, e.g. decision,note"],
  ["exclude_kinds", "Exclude kinds", "comma-separated, e.g. summary"],
  ["since", "Since", "ISO 8601, e.g. 2026-03-01"],
  ["until", "Until", "ISO 8601, exclusive"],
  ["as_of", "As of (world time)", "ISO 8601: what was true then"],
  ["known_at", "Known at (record time)", "ISO 8601: what Cascade knew then"],
  ["now", "Now", "ISO 8601: the reference for recency and 'last week'"],
];
const NUMBER_OPTIONS: [key: string, label: string, hint: string][] = [
  ["k", "k (hits)", "how many hits (default 10)"],
  ["rrf_k", "rrf_k", "the RRF constant (default 60)"],
  ["depth", "Depth", "how deep each channel looks"],
];

function buildBody(form: HTMLFormElement, channels: string[]): Record<string, unknown> {
  const v = (name: string) => (form.elements.namedItem(name) as HTMLInputElement | null)?.value.trim() ?? "";
  const body: Record<string, unknown> = { query: v("query") };
  for (const [key] of NUMBER_OPTIONS) if (v(key) !== "") body[key] = Number(v(key));
  for (const [key] of TEXT_OPTIONS) {
    if (v(key) === "") continue;
    body[key] = key.endsWith("kinds") ? v(key).split(",").map((s) => s.trim()).filter(Boolean) : v(key);
  }
  const chosen = channels.filter((c) => (form.elements.namedItem(`ch-${c}`) as HTMLInputElement).checked);
  if (chosen.length !== channels.length) body.channels = chosen;
  const weights: Record<string, number> = {};
  for (const c of channels) if (v(`w-${c}`) !== "") weights[c] = Number(v(`w-${c}`));
  if (Object.keys(weights).length) body.weights = weights;
  if ((form.elements.namedItem("current_only") as HTMLInputElement).checked) body.current_only = true;
  if (v("time") !== "") body.time = v("time");
  return body;
}

/** The URL form of a body (and back), so searches survive a reload. */
function toParams(body: Record<string, unknown>): URLSearchParams {
  const p = new URLSearchParams();
  for (const [k, val] of Object.entries(body)) {
    if (k === "weights") for (const [c, w] of Object.entries(val as Record<string, number>)) p.set(`w-${c}`, String(w));
    else p.set(k, Array.isArray(val) ? val.join(",") : String(val));
  }
  return p;
}

function fillForm(form: HTMLFormElement, params: URLSearchParams, channels: string[]): void {
  for (const [k, val] of params) {
    const el = form.elements.namedItem(k) as HTMLInputElement | null;
    if (el && el.type !== "checkbox") el.value = val;
  }
  if (params.has("channels")) {
    const on = new Set(params.get("channels")!.split(","));
    for (const c of channels) (form.elements.namedItem(`ch-${c}`) as HTMLInputElement).checked = on.has(c);
  }
  (form.elements.namedItem("current_only") as HTMLInputElement).checked = params.get("current_only") === "true";
}

export async function renderSearch(root: HTMLElement, ctx: PanelContext): Promise<void> {
  const channels = await loadChannels();
  const results = h("section", { id: "results", "aria-label": "Search results" });
  const form = h(
    "form",
    { id: "search-form", role: "search" },
    h("h2", { tabindex: -1 }, "Search"),
    h(
      "div",
      { class: "row" },
      h("label", { for: "query" }, "Query"),
      input("query", { type: "search", placeholder: "what did we decide about the config change?" }),
      h("button", { type: "submit", class: "primary" }, "Search"),
    ),
    h(
      "details",
      { open: ctx.params.size > 1 },
      h("summary", {}, "Options (every field of POST /v1/search)"),
      h(
        "fieldset",
        {},
        h("legend", {}, "Ranking"),
        h(
          "div",
          { class: "grid" },
          NUMBER_OPTIONS.map(([k, label, hint]) => field(label, input(k, { type: "number", min: 0, step: "any" }), hint)),
          field("Time words", h("select", { id: "time", name: "time" }, ["", "boost", "restrict", "off"].map((m) => h("option", { value: m }, m || "default"))), "how date words in the query are used"),
        ),
      ),
      h(
        "fieldset",
        {},
        h("legend", {}, "Channels and weights"),
        h(
          "div",
          { class: "grid" },
          channels.map((c) =>
            h("div", { class: "row" }, input(`ch-${c}`, { type: "checkbox", checked: true }), h("label", { for: `ch-${c}` }, c), field(`${c} weight`, input(`w-${c}`, { type: "number", min: 0, step: "any", placeholder: "default", size: 5 }))),
          ),
        ),
      ),
      h(
        "fieldset",
        {},
        h("legend", {}, "Filters and time"),
        h(
          "div",
          { class: "grid" },
          TEXT_OPTIONS.map(([k, label, hint]) => field(label, input(k, { placeholder: hint.split(",")[0] }), hint)),
          h("div", { class: "row" }, input("current_only", { type: "checkbox" }), h("label", { for: "current_only" }, "Current only")),
        ),
      ),
    ),
  );
  root.append(form, results);
  fillForm(form, ctx.params, channels);

  const run = async () => {
    const body = buildBody(form, channels);
    replaceHash(`#search?${toParams(body)}`);
    ctx.clearError();
    results.setAttribute("aria-busy", "true");
    delete results.dataset.roundtripMs;
    const started = performance.now();
    try {
      const r = await api("POST", "/v1/search", body);
      if (!ctx.current()) return;
      showResults(results, r, performance.now() - started, (topic) => {
        (form.elements.namedItem("under") as HTMLInputElement).value = topic;
        void run();
      });
      // submit → answer → hits in the DOM: what the benchmark reads (bench/inspector.ts)
      results.dataset.roundtripMs = (performance.now() - started).toFixed(2);
    } catch (err) {
      clear(results);
      ctx.showError(err);
    } finally {
      results.removeAttribute("aria-busy");
    }
  };
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    void run();
  });
  if (ctx.params.has("query")) await run();
}

/**
 * Under a summary marked `stale`, the words the CLI and MCP print (STALE_SUMMARY_NOTE, which the page carries on
 * <body>): a person may otherwise take it for the whole of its window.
 */
function staleNote(s: { stale?: true }): HTMLElement | null {
  return s.stale ? h("p", { class: "stale-note", role: "note" }, document.body.dataset.staleNote ?? "may be out of date") : null;
}

function showResults(root: HTMLElement, r: any, roundTrip: number, filterTopic: (topic: string) => void): void {
  clear(root);
  const channels = r.channels as ChannelsJson;
  root.append(
    h(
      "p",
      { class: "muted", id: "search-summary" },
      `${r.hits.length} hit${r.hits.length === 1 ? "" : "s"} · server ${r.took_ms} ms · in the page ${roundTrip.toFixed(1)} ms · rrf_k ${r.rrf_k} · channels: `,
      Object.entries(channels).map(([c, x]) => `${c} ×${x.weight} (${x.candidates})`).join(", "),
    ),
  );
  if (Array.isArray(r.context) && r.context.length) {
    root.append(
      h("h3", {}, "Context (summaries)"),
      // spread: the DOM's append turns an array into the text "[object HTMLDivElement]"
      ...r.context.map((s: any) =>
        h("div", { class: "context", "data-id": s.id }, h("span", { class: "badge" }, s.level ?? "summary"), " ", s.window ? `${s.window.start ?? s.window} ` : "", staleNote(s), sentenceList(s.sentences ?? [])),
      ),
    );
  }
  if (r.hits.length === 0) {
    root.append(h("p", {}, "No memory matched."));
    return;
  }
  root.append(h("ol", { class: "hits" }, (r.hits as HitJson[]).map((hit, i) => hitCard(hit, i + 1, channels, r.rrf_k, filterTopic))));
}

function hitCard(hit: HitJson, position: number, channels: ChannelsJson, rrfK: number, filterTopic: (topic: string) => void): HTMLElement {
  const neighbours = (label: string, ids: string[]) => (ids.length ? h("div", { class: "muted" }, `${label}: `, ids.map((id) => [historyLink(id), " "])) : null);
  return h(
    "li",
    { class: "hit", "data-id": hit.id, "data-status": hit.status },
    h(
      "div",
      {},
      h(
        "div",
        { class: "row" },
        h("span", { class: "muted" }, `${position}.`),
        h("span", { class: `badge status-${hit.status}` }, hit.status),
        hit.title ? h("strong", {}, hit.title) : null,
        h("span", { class: "muted" }, [hit.kind, hit.level, hit.at, hit.speaker].filter(Boolean).join(" · ")),
      ),
      h("div", { class: "text" }, hit.text.length > 600 ? `${hit.text.slice(0, 600)}…` : hit.text),
      staleNote(hit),
      h(
        "div",
        { class: "row muted" },
        "topic: ",
        hit.topic ? h("button", { type: "button", class: "link", title: `filter the search to ${hit.topic}`, onclick: () => filterTopic(hit.topic!) }, hit.topic) : "none",
        " · ",
        h("a", { href: `#history/${encodeURIComponent(hit.id)}`, title: hit.id }, `history of ${shortId(hit.id)}`),
      ),
      neighbours("superseded by", hit.superseded_by),
      neighbours("supersedes", hit.supersedes),
      hit.adjustments.length
        ? h("ul", { class: "adjust", "aria-label": "score adjustments" }, hit.adjustments.map((a) => h("li", {}, "factor" in a ? `× ${Number(a.factor.toFixed(2))}: ${a.reason}` : `+ ${a.delta.toFixed(6)}: ${a.reason}`)))
        : null,
    ),
    rankBars(hit, channels, rrfK),
  );
}
