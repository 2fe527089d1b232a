/**
 * @module surfaces/http/openapi
 * The OpenAPI 3.1 document served at /openapi.json (without a token: it holds no memory). Request bodies come
 * from the same zod schemas the routes validate with, so the document cannot drift from what the server accepts;
 * every operation gets its operationId, the namespace header and the error schema here, and the test suite lints
 * the result with Redocly's recommended rules (test/openapi.test.ts).
 */
import { z } from "zod";
import { memoryChangesSchema } from "../../index.js";
import { linkBodySchema } from "./graph-routes.js";
import { batchDocSchema, decisionBodySchema, forgetWhereBodySchema, memoryBodySchema, messagesDocSchema, repathBodySchema, searchBodySchema, supersedeBodySchema, topicBodySchema } from "./schemas.js";

const json = (schema: z.ZodType) => ({ content: { "application/json": { schema: z.toJSONSchema(schema, { unrepresentable: "any" }) } } });
const ok = (description: string) => ({ description, content: { "application/json": { schema: { type: "object" } } } });
const failure = (description: string) => ({ description, content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } });
const errors = {
  "400": failure("INVALID_INPUT: the message names the field at fault"),
  "401": failure("UNAUTHORIZED: missing or wrong bearer token"),
  "403": failure("FORBIDDEN_HOST (Host does not name this server) or FORBIDDEN_ORIGIN (a web page not allowed with --allow-origin)"),
  "404": failure("NOT_FOUND: unknown id, or a namespace that does not exist (only adding memories or topics creates one)"),
  "413": failure("PAYLOAD_TOO_LARGE: body too large"),
  "415": failure("UNSUPPORTED_MEDIA_TYPE: a body not sent as Content-Type: application/json"),
};

/** Each operation's stable name, for generated clients. */
const OPERATION_IDS: Record<string, string> = {
  "get /": "inspector",
  "get /health": "health",
  "get /metrics": "metrics",
  "get /openapi.json": "openApi",
  "get /v1/memories": "listMemories",
  "get /v1/export": "exportMemories",
  "post /v1/memories": "addMemory",
  "post /v1/memories:batch": "addMemories",
  "post /v1/messages": "addMessages",
  "get /v1/memories/{id}": "getMemory",
  "delete /v1/memories/{id}": "forgetMemory",
  "post /v1/memories:purge": "purgeForgotten",
  "patch /v1/memories/{id}": "updateMemory",
  "post /v1/memories:forget": "forgetMemories",
  "get /v1/memories/{id}/history": "memoryHistory",
  "post /v1/search": "search",
  "post /v1/supersede": "supersede",
  "post /v1/edges/{id}/retract": "retractEdge",
  "get /v1/suggestions": "listSuggestions",
  "post /v1/suggestions/{id}": "decideSuggestion",
  "get /v1/topics": "listTopics",
  "post /v1/topics": "saveTopic",
  "post /v1/topics:move": "moveTopic",
  "post /v1/topics:merge": "mergeTopic",
  "delete /v1/topics/{path}": "deleteTopic",
  "get /v1/pyramid": "listSummaries",
  "post /v1/links": "link",
  "get /v1/graph/{id}": "graphAround",
  "get /v1/entities": "listEntities",
  "get /v1/current": "currentState",
  "get /v1/stats": "stats",
  "get /v1/doctor": "doctor",
  "post /v1/pyramid:build": "buildPyramid",
};

/** operationId everywhere; the namespace header on every /v1 operation. */
function finish(paths: Record<string, Record<string, Record<string, unknown>>>) {
  for (const [path, methods] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const operationId = OPERATION_IDS[`${method} ${path}`];
      if (!operationId) throw new Error(`openapi: no operationId for ${method} ${path}`);
      op.operationId = operationId;
      if (path.startsWith("/v1/")) op.parameters = [{ $ref: "#/components/parameters/Namespace" }, ...((op.parameters as unknown[]) ?? [])];
    }
  }
  return paths;
}
const id = [{ name: "id", in: "path", required: true, schema: { type: "string" } }];

export function openApiDocument() {
  return {
    openapi: "3.1.0",
    info: {
      title: "Cascade memory API",
      version: "0.1.0",
      description: "Memory for AI agents. Header X-Cascade-Namespace picks a namespace.",
      license: { name: "MIT", identifier: "MIT" },
    },
    servers: [{ url: "/", description: "the server that serves this document (cascade serve; default http://127.0.0.1:7373)" }],
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer", description: "--token or $CASCADE_TOKEN; none on loopback without one" } },
      parameters: {
        Namespace: {
          name: "X-Cascade-Namespace",
          in: "header",
          required: false,
          description: "an isolated memory (1-64 letters, digits, _ or -); default: the default one",
          schema: { type: "string", pattern: "^[A-Za-z0-9_-]{1,64}$" },
        },
      },
      schemas: {
        Error: {
          type: "object",
          required: ["error"],
          properties: {
            error: {
              type: "object",
              required: ["code", "message"],
              properties: { code: { type: "string" }, message: { type: "string" }, field: { type: "string", description: "the input at fault, when there is one" } },
            },
          },
        },
      },
    },
    security: [{ bearer: [] }],
    paths: finish({
      "/": { get: { summary: "the web inspector (HTML; served without the token: it holds no data, its API calls need it)", security: [], responses: { "200": { description: "the page", content: { "text/html": { schema: { type: "string" } } } }, "403": errors["403"] } } },
      "/health": { get: { summary: "liveness", security: [], responses: { "200": ok("{ok: true}"), "403": errors["403"] } } },
      "/metrics": {
        get: {
          summary: "Prometheus metrics: requests by route and status, latency per route and per search channel, memories, chunks, bytes and pyramid lag per open namespace",
          responses: { "200": { description: "the Prometheus text exposition format", content: { "text/plain": { schema: { type: "string" } } } }, "401": errors["401"], "403": errors["403"] },
        },
      },
      "/openapi.json": { get: { summary: "this document", security: [], responses: { "200": ok("the OpenAPI document"), "403": errors["403"] } } },
      "/v1/memories": {
        get: {
          summary: "a page of memories in time order, with status at as_of/known_at and the edges touching them",
          parameters: [
            ...["kind", "speaker"].map((name) => ({ name, in: "query", description: "repeat or comma-separate", schema: { type: "string" } })),
            ...["under", "since", "until", "as_of", "known_at", "cursor"].map((name) => ({ name, in: "query", schema: { type: "string" } })),
            { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 1000, default: 50 } },
            { name: "order", in: "query", schema: { type: "string", enum: ["asc", "desc"], default: "asc" } },
            { name: "filter", in: "query", schema: { type: "array", items: { type: "string" } }, description: "a condition in the CLI's spelling (user=alice, tags=travel, lang=en|de; a backslash before | keeps it in the value); repeatable" },
          ],
          responses: { "200": ok("{memories, edges, next_cursor}"), ...errors },
        },
        post: { summary: "remember one memory (fields of `cascade add`, text required)", requestBody: json(memoryBodySchema), responses: { "201": ok("{id, kind, topic, at, edges, suggestions, warnings?} (warnings: optional steps that failed on it, each {step, reason}: it is stored without them)"), "200": ok("its metadata.ref was already stored: {id, kind, topic, at, edges: [], suggestions: [], existing: true}"), ...errors } },
      },
      "/v1/export": {
        get: {
          summary: "every memory (or those matching since/until/filter) as JSONL, one a line with its corrections and edges: what `cascade export` writes and `cascade import` reads back",
          parameters: [
            ...["since", "until"].map((name) => ({ name, in: "query", schema: { type: "string" } })),
            { name: "filter", in: "query", description: "KEY=VALUE as in `--filter` (repeatable)", schema: { type: "string" } },
          ],
          responses: { "200": { description: "one exported memory a line", content: { "application/x-ndjson": { schema: { type: "string" } } } }, ...errors },
        },
      },
      "/v1/messages": {
        post: {
          summary: "store chat messages as turns and, with engine.facts configured, the facts a model states about them (kind fact, derived_from the messages)",
          requestBody: json(messagesDocSchema),
          responses: { "201": ok("{imported, skipped, ids, failed, warnings, facts: [{id, text, derived_from}]} (warnings: [{index, step, reason}]; step `facts`: the messages are stored, their facts could not be extracted or stored)"), ...errors },
        },
      },
      "/v1/memories:batch": { post: { summary: "remember many", requestBody: json(batchDocSchema), responses: { "200": ok("{imported, skipped, ids, failed, warnings} (warnings: [{index, step, reason}] for stored items an optional step failed on)"), ...errors } } },
      "/v1/memories/{id}": {
        get: { summary: "show", parameters: id, responses: { "200": ok("the memory, with status, superseded_by and supersedes as list gives them"), ...errors } },
        patch: {
          summary: "correct what a memory says (same id, time and edges; the previous content is kept in its history)",
          parameters: id,
          requestBody: json(memoryChangesSchema),
          responses: { "200": ok("the memory as it now reads"), ...errors },
        },
        delete: {
          summary: "forget (rebuilds the summaries that quoted it); ?purge=true also erases its text from the store's files",
          parameters: [...id, { name: "purge", in: "query", schema: { type: "string", enum: ["true", "false"] } }],
          responses: { "200": ok("{id, forgotten, summaries_rebuilt, purged?}; with purge=true an id not in the store (forgotten already) answers forgotten: false and purges"), ...errors },
        },
      },
      "/v1/memories:purge": {
        post: {
          summary: "erase every remnant of what was forgotten (summaries a forget did not get to rebuild, the text in the store's files); needs no id",
          responses: { "200": ok("{summaries_rebuilt, turn_summaries_removed, terms_dropped, checkpointed}"), ...errors },
        },
      },
      "/v1/memories:forget": {
        post: {
          summary: "forget every memory matching a filter, happening before an instant or expired (at least one condition); dry_run counts them only",
          requestBody: json(forgetWhereBodySchema),
          responses: { "200": ok("{matched, forgotten, dry_run, ids, summaries_rebuilt, purged?}"), ...errors },
        },
      },
      "/v1/memories/{id}/history": {
        get: {
          summary: "supersession chain, oldest to newest, every edge touching it and its corrections",
          parameters: [...id, ...["as_of", "known_at"].map((name) => ({ name, in: "query", schema: { type: "string" } }))],
          responses: { "200": ok("{id, chain, edges, revisions}"), ...errors },
        },
      },
      "/v1/search": {
        post: {
          summary: "fused search",
          requestBody: json(searchBodySchema),
          responses: {
            "200": {
              ...ok("the search JSON"),
              headers: {
                "Server-Timing": {
                  description: "`queue;dur=MS, search;dur=MS`: the wait behind other searches, and the search itself (its took_ms)",
                  schema: { type: "string" },
                },
              },
            },
            ...errors,
          },
        },
      },
      "/v1/supersede": { post: { summary: "NEW supersedes OLD", requestBody: json(supersedeBodySchema), responses: { "201": ok("the edge"), ...errors } } },
      "/v1/edges/{id}/retract": { post: { summary: "retract an edge", parameters: id, responses: { "200": ok("the edge"), ...errors } } },
      "/v1/suggestions": { get: { summary: "open revision suggestions", responses: { "200": ok("{suggestions}"), ...errors } } },
      "/v1/suggestions/{id}": { post: { summary: "accept or reject", parameters: id, requestBody: json(decisionBodySchema), responses: { "200": ok("the suggestion"), ...errors } } },
      "/v1/topics": {
        get: { summary: "topic tree with counts", parameters: [{ name: "under", in: "query", schema: { type: "string" } }], responses: { "200": ok("{topics}"), ...errors } },
        post: { summary: "create or describe a topic", requestBody: json(topicBodySchema), responses: { "201": ok("the topic"), ...errors } },
      },
      "/v1/topics:move": { post: { summary: "move a subtree atomically", requestBody: json(repathBodySchema), responses: { "200": ok("{from, to, memories}"), ...errors } } },
      "/v1/topics:merge": { post: { summary: "merge a subtree into another topic", requestBody: json(repathBodySchema), responses: { "200": ok("{from, to, memories}"), ...errors } } },
      "/v1/topics/{path}": { delete: { summary: "delete an empty topic", parameters: [{ name: "path", in: "path", required: true, schema: { type: "string" } }], responses: { "200": ok("{path, deleted}"), ...errors } } },
      "/v1/pyramid": {
        get: {
          summary: "summary pyramid nodes: the whole namespace's, or those of the one user or agent the filter names",
          parameters: [
            { name: "level", in: "query", schema: { type: "string", enum: ["turn", "day", "week", "month"] } },
            { name: "filter", in: "query", schema: { type: "array", items: { type: "string" } }, description: "a condition in the CLI's spelling (user=alice); repeatable; that user's nodes, only sentences from memories matching it" },
          ],
          responses: { "200": ok("{zone, dirty, nodes}"), ...errors },
        },
      },
      "/v1/links": { post: { summary: "relate two memories with a typed edge", requestBody: json(linkBodySchema), responses: { "201": ok("the edge"), ...errors } } },
      "/v1/graph/{id}": {
        get: {
          summary: "the memories and entities around a memory",
          parameters: [
            ...id,
            { name: "depth", in: "query", schema: { type: "integer", minimum: 1, maximum: 4 } },
            { name: "type", in: "query", schema: { type: "array", items: { type: "string" } }, description: "repeatable: an edge type or mentions" },
            { name: "as_of", in: "query", schema: { type: "string" } },
            { name: "known_at", in: "query", schema: { type: "string" } },
          ],
          responses: { "200": ok("{id, as_of, known_at, nodes, edges, truncated}"), ...errors },
        },
      },
      "/v1/entities": {
        get: {
          summary: "entities with how many memories mention them",
          parameters: [
            { name: "query", in: "query", schema: { type: "string" } },
            { name: "top", in: "query", schema: { type: "integer", minimum: 1, maximum: 10000 } },
            { name: "filter", in: "query", schema: { type: "array", items: { type: "string" } }, description: "a condition in the CLI's spelling (user=alice); repeatable; only entities those memories mention, counted over them" },
          ],
          responses: { "200": ok("{entities}"), ...errors },
        },
      },
      "/v1/current": {
        get: {
          summary: "what is true now: each standing fact of a scope, when it became true and what it replaced",
          parameters: [
            { name: "filter", in: "query", schema: { type: "array", items: { type: "string" } }, description: "a condition in the CLI's spelling (user=alice); repeatable; the scope whose facts are listed" },
            { name: "about", in: "query", schema: { type: "string", maxLength: 200 }, description: "an entity's name, or else what a search for it finds" },
            { name: "as_of", in: "query", schema: { type: "string" }, description: "as the world stood then" },
            { name: "known_at", in: "query", schema: { type: "string" }, description: "only memories and edges recorded (and not retracted) by then" },
            { name: "history", in: "query", schema: { type: "string", enum: ["true", "false"] }, description: "also every older version behind each fact" },
            { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 1000 } },
          ],
          responses: { "200": ok("{as_of, known_at, about, facts, attributes: [{attribute, value, text, id, since, user, agent, holder, before: [{value, id, since}]}], truncated}"), ...errors },
        },
      },
      "/v1/stats": { get: { summary: "memories, chunks, terms, bytes, embedder", responses: { "200": ok("the stats"), ...errors } } },
      "/v1/doctor": { get: { summary: "check every derived index against the tables (no repair)", responses: { "200": ok("{ok, checks}"), ...errors } } },
      "/v1/pyramid:build": { post: { summary: "recompute dirty windows", responses: { "200": ok("{recomputed, written, removed, took_ms}"), ...errors } } },
    }),
  };
}
