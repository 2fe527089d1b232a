/**
 * @module surfaces/http/browse-routes
 * Read-only routes for looking around a store (the web inspector uses them; so can anyone):
 * `GET /v1/memories` (a page of memories in time order), `GET /v1/stats` and `GET /v1/doctor` (checks only; the
 * repair stays a deliberate `cascade doctor --repair` at the command line). Query strings are strings: numbers
 * are checked here, everything else by the engine.
 */
import { sharedJobs } from "./shared-jobs.js";
import type { Context, Hono } from "hono";
import { CascadeError, defaultListLimits, parseFilterArgs, type Engine, type ListOptions } from "../../index.js";

function pageSize(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) {
    throw new CascadeError("INVALID_INPUT", `limit: a whole number from 1 to ${defaultListLimits.maxLimit}, got ${JSON.stringify(value.slice(0, 40))}`, { field: "limit" });
  }
  return Number(value);
}

/** Repeated (`kind=a&kind=b`) or comma-separated (`kind=a,b`) values. */
function many(c: Context, name: string): string[] | undefined {
  const values = c.req.queries(name)?.flatMap((v) => v.split(",")).map((v) => v.trim()).filter(Boolean);
  return values?.length ? values : undefined;
}

export function listOptionsFromQuery(c: Context): ListOptions {
  const q = (name: string) => {
    const v = c.req.query(name);
    return v === undefined || v === "" ? undefined : v;
  };
  const order = q("order");
  return {
    kinds: many(c, "kind"),
    under: q("under"),
    speakers: many(c, "speaker"),
    since: q("since"),
    until: q("until"),
    asOf: q("as_of"),
    knownAt: q("known_at"),
    limit: pageSize(q("limit")),
    cursor: q("cursor"),
    order: order as ListOptions["order"],
    // `?filter=user=alice&filter=priority>=2`: the CLI's spelling, each value one condition
    where: c.req.queries("filter")?.length ? parseFilterArgs(c.req.queries("filter")!, "filter") : undefined,
  };
}

export function registerBrowseRoutes(app: Hono, engine: (c: Context) => Promise<Engine>): void {
  app.get("/v1/memories", async (c) => c.json(await (await engine(c)).list(listOptionsFromQuery(c))));
  app.get("/v1/stats", async (c) => c.json(await (await engine(c)).stats()));
  // one run a namespace at a time, in a thread of its own, shared by the requests that ask while it runs
  const doctor = sharedJobs((e: Engine, signal) => e.doctor({ signal }));
  app.get("/v1/doctor", async (c) => c.json(await doctor(await engine(c), c.req.raw.signal)));
}
