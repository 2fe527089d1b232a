/**
 * @module surfaces/http/app
 * The HTTP JSON API: routes → engine calls → JSON. Bodies are schema-checked here; everything else is the
 * engine's. Errors carry the same codes as the SDK: INVALID_INPUT → 400, NOT_FOUND → 404, oversize → 413.
 */
import { isServerWorker } from "./workers.js";
import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { z } from "zod";
import { CascadeError, decodeUtf8, respelled, storeFailure, wireName, isPostgresUrl, memoryChangesSchema, parseFilterArgs, parseWith, recallOptionsFromWire, type Engine, type ErrorCode, type MemoryInput, type MemorySpace } from "../../index.js";
import { openApiDocument } from "./openapi.js";
import { oneTurnEach, overlapping } from "./search-queue.js";
import { batchBodySchema, decisionBodySchema, forgetWhereBodySchema, messagesBodySchema, repathBodySchema, searchBodySchema, supersedeBodySchema, topicBodySchema } from "./schemas.js";
import { registerGraphRoutes } from "./graph-routes.js";
import { registerBrowseRoutes } from "./browse-routes.js";
import { registerExportRoute } from "./export-route.js";
import { registerInspector } from "../web/inspector.js";
import { requestGuards, type GuardOptions } from "./guard.js";
import { checkJsonShape } from "./json-bounds.js";
import { namespaceHeader } from "./namespace-header.js";
import { allowedMethods } from "./method-not-allowed.js";
import { createServerMetrics } from "./metrics.js";

export interface HttpOptions extends GuardOptions {
  /** Bearer token every route but /health requires; none means open (only allowed on loopback). */
  token?: string;
  maxBodyBytes: number;
  maxBatch: number;
}

export const defaultHttpOptions = Object.freeze({
  maxBodyBytes: 16 * 1024 * 1024, // one memory may hold up to 1,000,000 characters of UTF-8
  maxBatch: 1000, // a batch is one transaction per 256; a thousand keeps a request under a few seconds
});

/** Memories per write transaction in a batch request: ~40 ms of work, so /health never waits much longer. */
const HTTP_WRITE_BATCH = 64;

const CREATING_ROUTES = new Set(["/v1/memories", "/v1/memories:batch", "/v1/messages", "/v1/topics"]);

const STATUS: Record<ErrorCode, 400 | 404 | 409 | 500 | 501 | 502> = {
  INVALID_INPUT: 400,
  NOT_FOUND: 404,
  EMBEDDER_MISMATCH: 409,
  UNSUPPORTED: 501,
  PROVIDER_ERROR: 502,
  STORE_ERROR: 500,
  INTERNAL: 500,
};


/** The error body; `field` names the input at fault when there is one (as the wire spells it), for clients to point at. */
function problem(c: Context, status: 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 500 | 501 | 502, code: string, message: string, field?: string) {
  return c.json({ error: field === undefined ? { code, message } : { code, message, field } }, status);
}

export async function body<T extends z.ZodType>(c: Context, schema: T): Promise<z.infer<T>> {
  // bytes that are not UTF-8 are refused, as import refuses them, not stored as U+FFFD
  const text = decodeUtf8("body", new Uint8Array(await c.req.arrayBuffer()));
  checkJsonShape(text); // before JSON.parse builds a document of any depth or size
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new CascadeError("INVALID_INPUT", "body: not valid JSON", { field: "body" });
  }
  return parseWith(schema, json);
}

export function createHttpApp(space: MemorySpace, options: HttpOptions): Hono {
  const app = new Hono();
  // Each request holds its namespace's engine while it runs (so the space never closes a store in use); only
  // the writes that add memories or topics create a namespace, a read of an unknown one is 404.
  const leased = new WeakMap<Request, Engine>();
  const engine = async (c: Context) => leased.get(c.req.raw)!;
  const searches = isPostgresUrl(space.basePath) ? overlapping : oneTurnEach();

  app.onError((thrown, c) => {
    // the field named as this API spells it (as_of, not the SDK's asOf)
    const err = respelled(storeFailure(thrown) ?? thrown, wireName);
    if (err instanceof CascadeError) return problem(c, STATUS[err.code], err.code, err.message, err.field);
    return problem(c, 500, "INTERNAL", err instanceof Error ? err.message : String(err));
  });
  if (isServerWorker()) {
    // which of `serve --workers` answered: for logs and for the test that both share the load
    app.use("*", async (c, next) => {
      await next();
      c.header("X-Cascade-Worker", String(process.pid));
    });
  }
  const allowed = allowedMethods(app);
  app.notFound((c) => {
    const methods = allowed(c.req.path);
    if (methods.length === 0) return problem(c, 404, "NOT_FOUND", `no route ${c.req.method} ${c.req.path}`);
    c.header("Allow", methods.join(", "));
    return problem(c, 405, "METHOD_NOT_ALLOWED", `${c.req.path} does not take ${c.req.method}; it takes ${methods.join(", ")}`);
  });
  // first of all, so that what the guards refuse is counted too
  const metrics = createServerMetrics(space);
  app.use("*", metrics.middleware);

  // First, before any guard: the page and its scripts hold no data (a browser cannot send a bearer token when it
  // opens a page); every API call they make goes through the guards below like any other client's.
  registerInspector(app);
  for (const guard of requestGuards(options, problem)) app.use("*", guard);
  app.get("/health", (c) => c.json({ ok: true }));
  // behind the guards: with a token, a scraper sends it like any client
  app.get("/metrics", async (c) => {
    const { contentType, body } = await metrics.scrape();
    return c.body(body, 200, { "Content-Type": contentType });
  });
  app.use(
    "*",
    bodyLimit({
      maxSize: options.maxBodyBytes,
      onError: (c) => problem(c, 413, "PAYLOAD_TOO_LARGE", `body: larger than ${options.maxBodyBytes} bytes`),
    }),
  );

  app.use("/v1/*", async (c, next) => {
    const creates = c.req.method === "POST" && CREATING_ROUTES.has(c.req.path);
    const lease = await space.acquire(namespaceHeader(c), { create: creates });
    leased.set(c.req.raw, lease.engine);
    try {
      await next();
    } finally {
      lease.release();
    }
  });

  app.get("/openapi.json", (c) => c.json(openApiDocument()));

  app.post("/v1/memories", async (c) => {
    const input = await body(c, z.record(z.string(), z.unknown()));
    // parsed JSON: the engine checks every field at its boundary, whatever the static type says
    const stored = await (await engine(c)).remember(input as unknown as MemoryInput);
    return c.json(stored, stored.existing ? 200 : 201); // 200: its ref was already stored, nothing new
  });

  app.post("/v1/messages", async (c) => {
    const { messages, extract } = await body(c, messagesBodySchema);
    // each message is checked by the engine at its boundary, whatever the static type says
    return c.json(await (await engine(c)).rememberMessages(messages as MemoryInput[], { extract }), 201);
  });

  app.post("/v1/:op{memories:batch}", async (c) => {
    const { memories, dedupe } = await body(c, batchBodySchema);
    if (memories.length > options.maxBatch) {
      throw new CascadeError("INVALID_INPUT", `memories: at most ${options.maxBatch} per batch, got ${memories.length}`, { field: "memories" });
    }
    // small write batches, with the event loop free between them, so other requests wait at most one batch
    const r = await (await engine(c)).rememberMany(memories as MemoryInput[], { dedupe, batchSize: HTTP_WRITE_BATCH });
    return c.json({ imported: r.imported, skipped: r.skipped, ids: r.ids, failed: r.failed });
  });

  registerBrowseRoutes(app, engine);
  registerExportRoute(app, space);
  app.get("/v1/memories/:id", async (c) => c.json(await (await engine(c)).show(c.req.param("id"))));
  app.patch("/v1/memories/:id", async (c) => c.json(await (await engine(c)).update(c.req.param("id"), await body(c, memoryChangesSchema))));
  app.delete("/v1/memories/:id", async (c) => {
    const purge = c.req.query("purge");
    if (purge !== undefined && purge !== "true" && purge !== "false") throw new CascadeError("INVALID_INPUT", "purge: true or false", { field: "purge" });
    return c.json(await (await engine(c)).forget(c.req.param("id"), { purge: purge === "true" }));
  });
  app.post("/v1/:op{memories:purge}", async (c) => c.json(await (await engine(c)).purge()));
  app.post("/v1/:op{memories:forget}", async (c) => {
    const b = await body(c, forgetWhereBodySchema);
    return c.json(await (await engine(c)).forgetWhere({ filter: b.filter, before: b.before, expired: b.expired, dryRun: b.dry_run, purge: b.purge }));
  });
  app.get("/v1/memories/:id/history", async (c) =>
    c.json(await (await engine(c)).history(c.req.param("id"), { asOf: c.req.query("as_of"), knownAt: c.req.query("known_at") })),
  );

  app.post("/v1/search", async (c) => {
    const { query, ...options } = await body(c, searchBodySchema);
    const e = await engine(c);
    const arrived = performance.now();
    let started = arrived;
    const result = await searches(() => {
      started = performance.now();
      return e.recall(query, recallOptionsFromWire(options));
    });
    // the wait behind other searches and the search itself, in the standard header (browser tools show it; a
    // load generator reads it without parsing the body)
    c.header("Server-Timing", `queue;dur=${(started - arrived).toFixed(3)}, search;dur=${result.took_ms}`);
    metrics.observeSearch(result);
    // encoded once, written as bytes: a search's answer carries its hits' texts (1.2 MB on a store holding a
    // megabyte memory), and a string answer is measured for its length, then encoded again as it is written, two
    // passes of 5-50 ms each on the server's thread that nothing can pause
    return c.body(Buffer.from(JSON.stringify(result)), 200, { "content-type": "application/json" });
  });

  app.post("/v1/supersede", async (c) => {
    const b = await body(c, supersedeBodySchema);
    return c.json(await (await engine(c)).supersede(b.new, b.old, { reason: b.reason, at: b.at }), 201);
  });
  app.post("/v1/edges/:id/retract", async (c) => c.json(await (await engine(c)).retract(c.req.param("id"))));
  app.get("/v1/suggestions", async (c) => c.json({ suggestions: await (await engine(c)).suggestions() }));
  app.post("/v1/suggestions/:id", async (c) => {
    const { decision } = await body(c, decisionBodySchema);
    return c.json(await (await engine(c)).decideSuggestion(c.req.param("id"), decision));
  });

  registerGraphRoutes(app, engine, body);

  app.get("/v1/topics", async (c) => c.json(await (await engine(c)).topics(c.req.query("under"))));
  app.post("/v1/topics", async (c) => {
    const b = await body(c, topicBodySchema);
    return c.json(await (await engine(c)).createTopic(b.path, { description: b.description }), 201);
  });
  app.post("/v1/:op{topics:(move|merge)}", async (c) => {
    const b = await body(c, repathBodySchema);
    const e = await engine(c);
    return c.json(c.req.param("op") === "topics:move" ? await e.moveTopic(b.from, b.to) : await e.mergeTopic(b.from, b.to));
  });
  app.delete("/v1/topics/:path", async (c) => c.json(await (await engine(c)).deleteTopic(c.req.param("path"))));
  // `?filter=user=alice`: the CLI's spelling (as GET /v1/memories): that user's nodes, only sentences from memories matching it
  app.get("/v1/pyramid", async (c) =>
    c.json(await (await engine(c)).pyramid({ level: c.req.query("level"), where: c.req.queries("filter")?.length ? parseFilterArgs(c.req.queries("filter")!, "filter") : undefined })),
  );
  app.post("/v1/pyramid:build", async (c) => c.json(await (await engine(c)).buildPyramid()));

  return app;
}
