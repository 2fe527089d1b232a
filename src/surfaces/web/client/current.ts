/**
 * @module web/client/current
 * What is true now (GET /v1/current) in one scope: the person picks everyone in the namespace, a user or an agent
 * (the names the newest memories carry are offered, one click each), and sees each standing fact with when it
 * became true and what it replaced; its older versions open in place and each memory's history is a link away.
 * The form's values are kept in the hash (`#now?user=maya&as_of=2026-04-01`), so a shared URL shows the same state.
 */
import { api, qs } from "./api.js";
import { append, countOf, field, h, historyLink, input, shortId } from "./dom.js";
import { replaceHash, type PanelContext } from "./panel.js";

interface Replaced {
  id: string;
  text: string;
  statement: boolean;
  since: string;
  until: string;
  reason: string | null;
  confidence: number;
  edge: string;
}
interface Fact {
  id: string;
  text: string;
  since: string;
  user: string | null;
  agent: string | null;
  revised: { statement: string; by: string }[];
  replaced: Replaced[];
  history?: Replaced[];
}
interface Attribute {
  attribute: string;
  value: string;
  text: string;
  id: string;
  since: string;
  user: string | null;
  holder: string | null;
  before: { value: string; id: string; since: string }[];
}
interface State {
  as_of: string;
  about: { entity: { name: string } } | { query: string } | null;
  facts: Fact[];
  /** Absent from a server older than the attribute view. */
  attributes?: Attribute[];
  truncated: boolean;
}

type ScopeKind = "" | "user" | "agent";

/** How many of the newest memories are read for the scope names offered (a hint, not a census). */
const NAMES_FROM = 200;

const day = (iso: string) => iso.slice(0, 10);
/** An instant as a person reads it: the day alone at midnight UTC, otherwise day and time to the minute. */
const when = (iso: string) => (/T00:00(:00(\.0+)?)?Z$/.test(iso) ? day(iso) : `${day(iso)} ${iso.slice(11, 16)} UTC`);
const scopeLabel = (kind: ScopeKind, name: string) => (kind === "" ? "everyone in the namespace" : `${kind} ${name}`);

/** Users and agents named by the newest memories, each once, in the order first met. */
async function scopesSeen(): Promise<{ kind: "user" | "agent"; name: string }[]> {
  const page = (await api("GET", `/v1/memories${qs({ order: "desc", limit: NAMES_FROM })}`)) as { memories: { user?: string | null; agent?: string | null }[] };
  const seen = new Map<string, { kind: "user" | "agent"; name: string }>();
  for (const m of page.memories) {
    if (m.user) seen.set(`user=${m.user}`, { kind: "user", name: m.user });
    if (m.agent) seen.set(`agent=${m.agent}`, { kind: "agent", name: m.agent });
  }
  return [...seen.values()].sort((a, b) => a.kind.localeCompare(b.kind) || a.name.localeCompare(b.name));
}

function olderLine(r: Replaced): HTMLElement {
  return h(
    "li",
    { "data-id": r.id },
    `“${r.text}” `,
    h("span", { class: "muted" }, `true ${when(r.since)} to ${when(r.until)} (${r.statement ? "one sentence of " : ""}`, historyLink(r.id), ")"),
    r.reason ? h("div", { class: "muted" }, `why: ${r.reason}${r.confidence < 1 ? ` (confidence ${r.confidence.toFixed(2)})` : ""}`) : null,
  );
}

/** One standing attribute: whose, its value now and since when, the values before it, the stating memory's history. */
function attributeItem(a: Attribute): HTMLElement {
  const whose = a.holder ?? a.user;
  return h(
    "li",
    { "data-id": a.id, title: a.text },
    h("strong", {}, `${whose ? `${whose}'s ` : ""}${a.attribute}: ${a.value}`),
    h("span", { class: "muted" }, ` since ${when(a.since)} (`, historyLink(a.id), ")"),
    a.before.length ? h("span", { class: "muted before" }, ` · before: ${a.before.map((b) => `${b.value} (${when(b.since)})`).join(", ")}`) : null,
  );
}

function factItem(f: Fact): HTMLElement {
  const older = f.history ?? f.replaced;
  return h(
    "li",
    { class: "tl-item", "data-id": f.id },
    h("div", { class: "text" }, f.text),
    h(
      "div",
      { class: "muted since", title: f.since },
      `true since ${when(f.since)}`,
      f.user ? ` · user ${f.user}` : "",
      f.agent ? ` · agent ${f.agent}` : "",
      " · ",
      historyLink(f.id, `history of ${shortId(f.id)}`),
    ),
    f.replaced.length
      ? h(
          "div",
          { class: "replaced" },
          "Replaced ",
          f.replaced.map((r, i) => [i ? "; " : "", `“${r.text}” (true since ${when(r.since)})`]),
          ".",
        )
      : h("div", { class: "muted replaced" }, "The first value recorded: it replaced nothing."),
    f.revised.length
      ? h(
          "div",
          { class: "muted revised" },
          "Partly current: ",
          f.revised.map((r, i) => [i ? "; " : "", `“${r.statement}” was replaced by `, historyLink(r.by)]),
          ".",
        )
      : null,
    older.length ? h("details", {}, h("summary", {}, `Earlier versions (${older.length})`), h("ol", { class: "chain" }, older.map(olderLine))) : null,
  );
}

export async function renderCurrent(root: HTMLElement, ctx: PanelContext): Promise<void> {
  const p = ctx.params;
  const initial: ScopeKind = p.get("user") !== null ? "user" : p.get("agent") !== null ? "agent" : "";
  const kind = h(
    "select",
    { id: "now-scope", name: "now-scope" },
    h("option", { value: "" }, "everyone in the namespace"),
    h("option", { value: "user" }, "one user"),
    h("option", { value: "agent" }, "one agent"),
  );
  kind.value = initial;
  const name = input("now-name", { value: initial ? (p.get(initial) ?? "") : "", placeholder: "maya", list: "now-names" });
  const names = h("datalist", { id: "now-names" });
  const about = input("now-about", { value: p.get("about") ?? "", placeholder: "an entity or a subject" });
  const asOf = input("now-as-of", { value: p.get("as_of") ?? "", placeholder: "2026-11-05" });
  const picks = h("p", { id: "now-picks", class: "muted" }, "Reading the scopes the newest memories name…");
  const results = h("section", { id: "now-results", "aria-label": "Current facts" });
  const form = h(
    "form",
    { id: "now-form" },
    h(
      "div",
      { class: "grid" },
      field("Whose facts", kind),
      field("Name", name, "the user's or agent's name, exactly as stored"),
      field("About (optional)", about, "an entity's name, or words search finds"),
      field("As of (empty: now)", asOf, "an ISO date or instant: what was true then"),
    ),
    names,
    h("button", { type: "submit", class: "primary" }, "Show what is true"),
  );
  const syncName = () => {
    name.disabled = kind.value === "";
    if (name.disabled) name.value = "";
  };
  syncName();
  kind.addEventListener("change", () => {
    syncName();
    if (!name.disabled) name.focus();
  });
  root.append(
    h("h2", { tabindex: -1 }, "What is true now"),
    h("p", { class: "muted" }, "Each fact that stands in a scope: since when it holds, what it replaced, and its earlier versions."),
    form,
    picks,
    results,
  );

  // the scopes offered: a hint read once per visit; a failure here must not hide the facts
  const offer = scopesSeen().then(
    (seen) => {
      if (!ctx.current()) return;
      names.replaceChildren(...seen.map((s) => h("option", { value: s.name, label: `${s.kind} ${s.name}` })));
      if (seen.length === 0) {
        picks.replaceChildren(`None of the newest ${NAMES_FROM} memories names a user or an agent: every fact here is everyone's.`);
        return;
      }
      const keep = { about: about.value.trim(), as_of: asOf.value.trim() };
      picks.replaceChildren();
      append(picks, [
        "Scopes in the newest memories: ",
        h("a", { href: `#now${qs(keep)}` }, "everyone"),
        seen.map((s) => [" · ", h("a", { href: `#now${qs({ [s.kind]: s.name, ...keep })}`, "data-scope": `${s.kind}=${s.name}` }, `${s.kind} ${s.name}`)]),
      ]);
    },
    (err) => {
      if (ctx.current()) picks.replaceChildren(`The scopes could not be read (${(err as Error).message}); type a name.`);
    },
  );

  const show = async () => {
    const k = kind.value as ScopeKind;
    const who = name.value.trim();
    if (k !== "" && who === "") {
      ctx.showError(new Error(`Name: which ${k}? Type a name or pick one of the scopes listed under the form.`));
      name.focus();
      return;
    }
    const params = { ...(k ? { [k]: who } : {}), about: about.value.trim(), as_of: asOf.value.trim() };
    replaceHash(`#now${qs(params)}`);
    const state = (await api("GET", `/v1/current${qs({ filter: k ? `${k}=${who}` : undefined, about: params.about, as_of: params.as_of, history: "true" })}`)) as State;
    if (!ctx.current()) return;
    ctx.clearError();
    const subject = state.about === null ? "" : "entity" in state.about ? ` about ${state.about.entity.name}` : ` about “${state.about.query}”`;
    const summary = h(
      "p",
      { id: "now-summary" },
      `${countOf(state.facts.length, "fact")} for ${scopeLabel(k, who)}${subject}, as of ${when(state.as_of)}${state.truncated ? " (more exist: narrow the scope or the subject)" : ""}.`,
    );
    const attributes = state.attributes ?? [];
    results.replaceChildren(
      summary,
      attributes.length ? h("section", { "aria-label": "Attributes now" }, h("h3", {}, "Attributes now"), h("ul", { id: "now-attributes" }, attributes.map(attributeItem))) : "",
      state.facts.length === 0
        ? h("p", { class: "muted", id: "now-none" }, "Nothing recorded holds in this scope at that time.")
        : h("ol", { class: "hits", id: "now-facts" }, state.facts.map(factItem)),
    );
  };
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    show().catch((err) => {
      results.replaceChildren(); // facts of the previous question would read as the answer to this one
      ctx.showError(err);
    });
  });
  await Promise.all([show(), offer]);
}
