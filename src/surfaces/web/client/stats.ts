/**
 * @module web/client/stats
 * Stats and doctor on one panel: how much the store holds (GET /v1/stats), whether its derived indexes agree
 * with its tables (GET /v1/doctor, checks only), the pyramid's backlog and the open revision suggestions.
 */
import { api } from "./api.js";
import { countOf, h } from "./dom.js";
import type { PanelContext } from "./panel.js";

const mb = (bytes: number) => `${(bytes / 1048576).toFixed(2)} MB`;

export async function renderStats(root: HTMLElement, ctx: PanelContext): Promise<void> {
  root.append(h("h2", { tabindex: -1 }, "Stats and doctor"));
  const [stats, doctor, pyramid, suggestions] = await Promise.all([api("GET", "/v1/stats"), api("GET", "/v1/doctor"), api("GET", "/v1/pyramid"), api("GET", "/v1/suggestions")]);
  if (!ctx.current()) return;
  const levels = (lvl: string) => pyramid.nodes.filter((n: any) => n.level === lvl).length;
  const row = (k: string, v: string | number) => h("tr", {}, h("th", { scope: "row" }, k), h("td", {}, String(v)));
  root.append(
    h(
      "table",
      { id: "stats-table" },
      h("caption", { class: "muted" }, "Store"),
      h(
        "tbody",
        {},
        Object.entries(stats).map(([k, v]) => row(k, k === "bytes" ? mb(v as number) : (v as string))),
        row("pyramid nodes", `${countOf(levels("month"), "month")}, ${countOf(levels("week"), "week")}, ${countOf(levels("day"), "day")} (zone ${pyramid.zone})`),
        row("windows out of date", pyramid.dirty),
        row("open suggestions", suggestions.suggestions.length),
      ),
    ),
    h("h3", {}, "Doctor: ", h("span", { class: doctor.ok ? "ok" : "bad", id: "doctor-verdict" }, doctor.ok ? "every index agrees with the tables" : "some indexes disagree (run cascade doctor --repair)")),
    h(
      "table",
      { id: "doctor-table" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "check"), h("th", { scope: "col" }, "result"), h("th", { scope: "col" }, "detail"))),
      h("tbody", {}, doctor.checks.map((c: any) => h("tr", {}, h("td", {}, c.name), h("td", { class: c.ok ? "ok" : "bad" }, c.ok ? "ok" : c.repaired ? "repaired" : "FAIL"), h("td", {}, c.detail)))),
    ),
  );
}
