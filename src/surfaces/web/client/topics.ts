/**
 * @module web/client/topics
 * The topic taxonomy as a tree with counts (memories directly at a path / at it or below). A path's buttons
 * filter the timeline or the search to that subtree.
 */
import { api } from "./api.js";
import { h } from "./dom.js";
import type { PanelContext } from "./panel.js";

interface Topic {
  path: string;
  count: number;
  total: number;
  description: string | null;
}

export async function renderTopics(root: HTMLElement, ctx: PanelContext): Promise<void> {
  root.append(h("h2", { tabindex: -1 }, "Topics"));
  const { topics } = (await api("GET", "/v1/topics")) as { topics: Topic[] };
  if (!ctx.current()) return;
  if (topics.length === 0) {
    root.append(h("p", {}, "No topics yet."));
    return;
  }
  const children = new Map<string, Topic[]>();
  const paths = new Set(topics.map((t) => t.path));
  for (const t of topics) {
    const parent = t.path.includes(".") ? t.path.slice(0, t.path.lastIndexOf(".")) : "";
    const key = paths.has(parent) ? parent : "";
    children.set(key, [...(children.get(key) ?? []), t]);
  }
  const tree = (parent: string): HTMLElement | null => {
    const list = children.get(parent);
    if (!list) return null;
    return h(
      "ul",
      { class: "tree", role: parent ? "group" : null },
      list.map((t) =>
        h(
          "li",
          { "data-path": t.path },
          h("a", { href: `#timeline?under=${encodeURIComponent(t.path)}`, title: `show ${t.path} and below in the timeline` }, t.path.slice(t.path.lastIndexOf(".") + 1)),
          h("span", { class: "muted" }, ` ${t.count} here · ${t.total} in all `),
          h("a", { href: `#search?under=${encodeURIComponent(t.path)}`, class: "muted", "aria-label": `search in ${t.path}` }, "search"),
          t.description ? h("div", { class: "muted" }, t.description) : null,
          tree(t.path),
        ),
      ),
    );
  };
  root.append(h("p", { class: "muted" }, "Click a topic to see its memories in the timeline."), h("nav", { "aria-label": "Topic tree", id: "topic-tree" }, tree("")));
}
