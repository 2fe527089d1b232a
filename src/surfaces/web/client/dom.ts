/**
 * @module web/client/dom
 * A tiny element builder: h("div", {class: "x"}, child, "text"). Text always goes in as text nodes, never as
 * HTML, so memory text cannot inject markup into the page.
 */
export type Child = Node | string | number | null | undefined | false | Child[];
type Attrs = Record<string, string | number | boolean | null | undefined | EventListener>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === "function") el.addEventListener(key.replace(/^on/, ""), value);
    // through the CSSOM: the Content-Security-Policy forbids style attributes, not style properties
    else if (key === "style") el.style.cssText = String(value);
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

export function append(el: Node, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
}

const SVG = "http://www.w3.org/2000/svg";
export function svg(tag: string, attrs: Record<string, string | number> = {}, ...children: Node[]): SVGElement {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  children.forEach((c) => el.appendChild(c));
  return el;
}

/** A labelled form field: every control in the inspector has a visible label tied to it by id. */
export function field(label: string, control: HTMLInputElement | HTMLSelectElement, hint?: string): HTMLElement {
  const wrap = h("label", { class: "field", for: control.id }, label, control);
  if (hint) control.title = hint;
  return wrap;
}

export function input(id: string, attrs: Attrs = {}): HTMLInputElement {
  return h("input", { id, name: id, autocomplete: "off", ...attrs });
}

/** A short, readable id (the tail of a ULID) with the full one in the title. */
export function shortId(id: string): string {
  return id.length > 12 ? `…${id.slice(-8)}` : id;
}

/** A link to a memory's history panel. */
export function historyLink(id: string, label?: string): HTMLAnchorElement {
  return h("a", { href: `#history/${encodeURIComponent(id)}`, title: `history of ${id}` }, label ?? shortId(id));
}

export function clear(el: Element): void {
  while (el.firstChild) el.removeChild(el.firstChild);
}

/** "1 memory", "3 memories": the count with its noun in the right number (a copy of src/text/plural.ts: this bundle imports nothing outside). */
export function countOf(n: number, singular: string, plural = singular === "child" ? "children" : /[^aeiou]y$/.test(singular) ? `${singular.slice(0, -1)}ies` : `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}

/** What a pyramid node's children are (as src/model/pyramid.ts CHILD_NOUN). */
export const CHILD_NOUN: Record<string, string> = { turn: "memory", day: "memory", week: "day", month: "week" };
