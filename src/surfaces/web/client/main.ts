/**
 * @module web/client/main
 * The inspector's entry point: a hash router (`#search?query=…`, `#history/ID`, …) over seven panels, the token
 * prompt (shown when the API answers 401), and one error box that shows the API's own message for any failed
 * request, so bad input never leaves a blank page.
 */
import { ApiError, api, session } from "./api.js";
import { clear, h } from "./dom.js";
import { renderCurrent } from "./current.js";
import { renderHistory } from "./history.js";
import { renderPyramid } from "./pyramid.js";
import { renderSearch } from "./search.js";
import { renderStats } from "./stats.js";
import { renderTimeline } from "./timeline.js";
import { renderTopics } from "./topics.js";
import type { Panel, PanelContext } from "./panel.js";

const panels: Record<string, Panel> = {
  search: renderSearch,
  now: renderCurrent,
  timeline: renderTimeline,
  history: renderHistory,
  pyramid: renderPyramid,
  topics: renderTopics,
  stats: renderStats,
};

const main = document.getElementById("panel")!;
const errorBox = document.getElementById("error")!;
const tokenForm = document.getElementById("token-form") as HTMLFormElement;
const tokenInput = document.getElementById("token") as HTMLInputElement;
const nsInput = document.getElementById("namespace") as HTMLInputElement;

function showError(err: unknown): void {
  if (err instanceof ApiError && err.status === 401) {
    tokenForm.hidden = false;
    tokenInput.focus();
  }
  const text = err instanceof ApiError ? `${err.code}: ${err.message}` : err instanceof Error ? err.message : String(err);
  clear(errorBox);
  errorBox.append(h("strong", {}, "Error "), text);
  errorBox.hidden = false;
}

function clearError(): void {
  errorBox.hidden = true;
  clear(errorBox);
}

export function parseHash(hash: string): { panel: string; arg: string; params: URLSearchParams } {
  const raw = hash.replace(/^#/, "");
  const q = raw.indexOf("?");
  const path = q >= 0 ? raw.slice(0, q) : raw;
  const slash = path.indexOf("/");
  return {
    panel: (slash >= 0 ? path.slice(0, slash) : path) || "search",
    arg: slash >= 0 ? decodeURIComponent(path.slice(slash + 1)) : "",
    params: new URLSearchParams(q >= 0 ? raw.slice(q + 1) : ""),
  };
}

let lastPanel = "";
let generation = 0;
/** Whether the API has answered an authenticated call yet: the page and /openapi.json need no token, so the
 * first panel could otherwise render a form before anyone learns a token is required. */
let authorized = false;

async function route(): Promise<void> {
  const { panel, arg, params } = parseHash(location.hash);
  const render = panels[panel];
  const gen = ++generation;
  clearError();
  for (const a of document.querySelectorAll("nav a")) {
    if ((a as HTMLElement).dataset.tab === panel) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
  clear(main);
  if (!render) {
    showError(new Error(`no panel "${panel}": choose one of ${Object.keys(panels).join(", ")}`));
    return;
  }
  const ctx: PanelContext = {
    arg,
    params,
    showError: (e) => gen === generation && showError(e),
    clearError,
    current: () => gen === generation,
  };
  try {
    if (!authorized) {
      await api("GET", "/v1/stats");
      authorized = true;
    }
    await render(main, ctx);
  } catch (err) {
    ctx.showError(err);
  }
  if (panel !== lastPanel && lastPanel !== "") main.querySelector<HTMLElement>("h2")?.focus();
  lastPanel = panel;
  document.title = `Cascade inspector: ${panel}`;
}

tokenForm.addEventListener("submit", (e) => {
  e.preventDefault();
  session.setToken(tokenInput.value.trim());
  tokenInput.value = "";
  tokenForm.hidden = true;
  void route();
});

nsInput.value = session.namespace();
document.getElementById("namespace-form")!.addEventListener("submit", (e) => {
  e.preventDefault();
  session.setNamespace(nsInput.value.trim());
  void route();
});
nsInput.addEventListener("change", () => {
  session.setNamespace(nsInput.value.trim());
  void route();
});

window.addEventListener("hashchange", () => void route());
void route();
