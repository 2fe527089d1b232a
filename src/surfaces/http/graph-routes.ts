/**
 * @module surfaces/http/graph-routes
 * `POST /v1/links`, `GET /v1/graph/{id}`, `GET /v1/entities` and `GET /v1/current` (what is true now): bodies and query strings checked here, the
 * rest is the engine's. Bad input is a 400 and writes nothing; an unknown memory in the path is a 404.
 */
import type { Context, Hono } from "hono";
import { z } from "zod";
import { CascadeError, EDGE_TYPES, parseFilterArgs, type Engine } from "../../index.js";

export const linkBodySchema = z
  .object({
    from: z.string({ error: "required, a memory id" }),
    to: z.string({ error: "required, a memory id" }),
    type: z.enum(EDGE_TYPES, { error: `one of ${EDGE_TYPES.join(", ")}` }),
    reason: z.string().optional(),
    at: z.string().optional(),
  })
  .strict();

/** A query-string boolean (true or false), or a 400 naming the parameter. */
function booleanParam(name: string, value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (value !== "true" && value !== "false") throw new CascadeError("INVALID_INPUT", `${name}: true or false, got ${JSON.stringify(value)}`, { field: name });
  return value === "true";
}

/** A query-string integer, or a 400 naming the parameter. */
function integerParam(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value)) throw new CascadeError("INVALID_INPUT", `${name}: an integer, got ${JSON.stringify(value)}`, { field: name });
  return Number(value);
}

export function registerGraphRoutes(
  app: Hono,
  engine: (c: Context) => Promise<Engine>,
  body: <T extends z.ZodType>(c: Context, schema: T) => Promise<z.infer<T>>,
): void {
  app.post("/v1/links", async (c) => {
    const b = await body(c, linkBodySchema);
    return c.json(await (await engine(c)).link(b.from, b.to, { type: b.type, reason: b.reason, at: b.at }), 201);
  });
  app.get("/v1/graph/:id", async (c) => {
    const types = c.req.queries("type");
    return c.json(
      await (await engine(c)).graph(c.req.param("id"), {
        depth: integerParam("depth", c.req.query("depth")),
        types: types as never,
        asOf: c.req.query("as_of"),
        knownAt: c.req.query("known_at"),
      }),
    );
  });
  app.get("/v1/entities", async (c) =>
    c.json(
      await (await engine(c)).entities({
        query: c.req.query("query"),
        top: integerParam("top", c.req.query("top")),
        // `?filter=user=alice`: the CLI's spelling, each value one condition (as GET /v1/memories)
        where: c.req.queries("filter")?.length ? parseFilterArgs(c.req.queries("filter")!, "filter") : undefined,
      }),
    ),
  );
  // what is true now: `?filter=user=maya&about=Berlin&as_of=…&known_at=…&history=true&limit=20`
  app.get("/v1/current", async (c) =>
    c.json(
      await (await engine(c)).currentState({
        where: c.req.queries("filter")?.length ? parseFilterArgs(c.req.queries("filter")!, "filter") : undefined,
        about: c.req.query("about"),
        asOf: c.req.query("as_of"),
        knownAt: c.req.query("known_at"),
        history: booleanParam("history", c.req.query("history")),
        limit: integerParam("limit", c.req.query("limit")),
      }),
    ),
  );
}
