/**
 * @module web/client/pyramid
 * The summary pyramid, browsable month → week → day: each node opens (read on demand from
 * GET /v1/memories/{id}) to its sentences, each linked to the memories it came from and marked when a later
 * memory superseded one of them, and to its children.
 */
import { api } from "./api.js";
import { CHILD_NOUN, clear, countOf, h, historyLink } from "./dom.js";
import type { PanelContext } from "./panel.js";
import { sentenceList, type SentenceJson } from "./sentences.js";

export async function renderPyramid(root: HTMLElement, ctx: PanelContext): Promise<void> {
  const build = h("button", { type: "button", id: "pyramid-build" }, "Build dirty windows now");
  const view = h("section", { id: "pyramid-view", "aria-label": "Pyramid" });
  root.append(h("h2", { tabindex: -1 }, "Pyramid"), view);
  build.addEventListener("click", async () => {
    try {
      const r = await api("POST", "/v1/pyramid:build");
      // recomputed is counted by level ({day, week, month})
      const recomputed = Object.values((r.recomputed ?? {}) as Record<string, number>).reduce((a, b) => a + b, 0);
      build.textContent = `Built: ${countOf(recomputed, "window")} recomputed`;
      await show();
    } catch (err) {
      ctx.showError(err);
    }
  });
  const show = async () => {
    const months = await api("GET", "/v1/pyramid?level=month");
    if (!ctx.current()) return;
    clear(view);
    view.append(h("p", { class: "muted" }, `zone ${months.zone} · ${countOf(months.nodes.length, "month")} · ${countOf(months.dirty, "window")} out of date `, months.dirty ? build : null));
    if (months.nodes.length === 0) {
      view.append(h("p", {}, "No pyramid yet. Build it with `cascade pyramid build` or the button above."));
      if (!months.dirty) view.append(build);
      return;
    }
    view.append(h("div", { id: "pyramid-months" }, months.nodes.map((n: any) => nodeView(n, ctx))));
  };
  await show();
}

function label(n: { level: string; start: string; end: string }): string {
  const day = (s: string) => s.slice(0, 10);
  if (n.level === "month") return `Month ${n.start.slice(0, 7)}`;
  if (n.level === "week") return `Week ${day(n.start)} – ${day(new Date(Date.parse(n.end) - 1).toISOString())}`;
  return `Day ${day(n.start)}`;
}

/** A node as a disclosure: its summary text shows at once, its sentences and children when opened. */
function nodeView(n: any, ctx: PanelContext): HTMLElement {
  const body = h("div", { class: "pyr-body" });
  const details = h(
    "details",
    { class: "pyr-node", "data-level": n.level, "data-id": n.id },
    h("summary", {}, h("strong", {}, label(n)), h("span", { class: "muted" }, ` · ${countOf(n.children, CHILD_NOUN[n.level] ?? "child")}`)),
    body,
  );
  let loaded = false;
  details.addEventListener("toggle", async () => {
    if (!details.open || loaded) return;
    loaded = true;
    try {
      const node = await api("GET", `/v1/memories/${encodeURIComponent(n.id)}`);
      // `sentences` carries each one's status now; `metadata.sentences` is what the summariser wrote
      const sentences = (node.sentences ?? node.metadata?.sentences ?? []) as SentenceJson[];
      body.append(sentenceList(sentences));
      if (sentences.length === 0) body.append(h("div", { class: "text" }, node.text));
      const children: string[] = node.children ?? [];
      if (n.level !== "day" && children.length) {
        const nodes = await Promise.all(children.map((id) => api("GET", `/v1/memories/${encodeURIComponent(id)}`)));
        body.append(
          h(
            "div",
            { class: "pyr-children" },
            nodes.map((c) => nodeView({ id: c.id, level: c.metadata?.level ?? (n.level === "month" ? "week" : "day"), start: c.metadata?.start ?? c.at, end: c.metadata?.end ?? c.at, children: c.children?.length ?? 0 }, ctx)),
          ),
        );
      }
    } catch (err) {
      ctx.showError(err);
    }
  });
  return details;
}
