/**
 * @module surfaces/http/openapi
 * The OpenAPI 3.1 document served at /openapi.json. Request bodies come from the same zod schemas the routes
 * validate with, so the document cannot drift from what the server accepts.
 */
import { z } from "zod";
import { linkBodySchema } from "./graph-routes.js";
import { batchBodySchema, repathBodySchema, searchBodySchema, supersedeBodySchema, topicBodySchema } from "./schemas.js";

const json = (schema: z.ZodType) => ({ content: { "application/json": { schema: z.toJSONSchema(schema, { unrepresentable: "any" }) } } });
const ok = (description: string) => ({ description, content: { "application/json": {} } });
const errors = {
  "400": { description: "invalid input: {error: {code, message}}" },
  "401": { description: "missing or wrong bearer token" },
  "403": { description: "FORBIDDEN_HOST (Host does not name this server) or FORBIDDEN_ORIGIN (a web page not allowed with --allow-origin)" },
  "404": { description: "unknown id, or a namespace that does not exist (only adding memories or topics creates one)" },
  "413": { description: "body too large" },
  "415": { description: "a body not sent as Content-Type: application/json" },
};
const id = [{ name: "id", in: "path", required: true, schema: { type: "string" } }];

export function openApiDocument() {
  return {
    openapi: "3.1.0",
    info: { title: "Cascade memory API", version: "0.1.0", description: "Memory for AI agents. Header X-Cascade-Namespace picks a namespace." },
    components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
    security: [{ bearer: [] }],
    paths: {
      "/": { get: { summary: "the web inspector (HTML; served without the token: it holds no data, its API calls need it)", security: [], responses: { "200": { description: "text/html" } } } },
      "/health": { get: { summary: "liveness", security: [], responses: { "200": ok("{ok: true}") } } },
      "/v1/memories": {
        get: {
          summary: "a page of memories in time order, with status at as_of/known_at and the edges touching them",
          parameters: [
            ...["kind", "speaker"].map((name) => ({ name, in: "query", description: "repeat or comma-separate", schema: { type: "string" } })),
            ...["under", "since", "until", "as_of", "known_at", "cursor"].map((name) => ({ name, in: "query", schema: { type: "string" } })),
            { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 1000, default: 50 } },
            { name: "order", in: "query", schema: { type: "string", enum: ["asc", "desc"], default: "asc" } },
          ],
          responses: { "200": ok("{memories, edges, next_cursor}"), ...errors },
        },
        post: { summary: "remember one memory (fields of `cascade add`, text required)", requestBody: { content: { "application/json": { schema: { type: "object", required: ["text"] } } } }, responses: { "201": ok("{id, kind, topic, at}"), ...errors } } },
      "/v1/memories:batch": { post: { summary: "remember many", requestBody: json(batchBodySchema), responses: { "200": ok("{imported, skipped, ids, failed}"), ...errors } } },
      "/v1/memories/{id}": {
        get: { summary: "show", parameters: id, responses: { "200": ok("the memory"), ...errors } },
        delete: {
          summary: "forget (rebuilds the summaries that quoted it); ?purge=true also erases its text from the store's files",
          parameters: [...id, { name: "purge", in: "query", schema: { type: "string", enum: ["true", "false"] } }],
          responses: { "200": ok("{id, forgotten, summaries_rebuilt, purged?}"), ...errors },
        },
      },
      "/v1/memories/{id}/history": { get: { summary: "supersession chain", parameters: id, responses: { "200": ok("{id, chain, edges}"), ...errors } } },
      "/v1/search": { post: { summary: "fused search", requestBody: json(searchBodySchema), responses: { "200": ok("the search JSON"), ...errors } } },
      "/v1/supersede": { post: { summary: "NEW supersedes OLD", requestBody: json(supersedeBodySchema), responses: { "201": ok("the edge"), ...errors } } },
      "/v1/edges/{id}/retract": { post: { summary: "retract an edge", parameters: id, responses: { "200": ok("the edge"), ...errors } } },
      "/v1/suggestions": { get: { summary: "open revision suggestions", responses: { "200": ok("{suggestions}") } } },
      "/v1/suggestions/{id}": { post: { summary: "accept or reject", parameters: id, responses: { "200": ok("the suggestion"), ...errors } } },
      "/v1/topics": {
        get: { summary: "topic tree with counts", parameters: [{ name: "under", in: "query", schema: { type: "string" } }], responses: { "200": ok("{topics}") } },
        post: { summary: "create or describe a topic", requestBody: json(topicBodySchema), responses: { "201": ok("the topic"), ...errors } },
      },
      "/v1/topics:move": { post: { summary: "move a subtree atomically", requestBody: json(repathBodySchema), responses: { "200": ok("{from, to, memories}"), ...errors } } },
      "/v1/topics:merge": { post: { summary: "merge a subtree into another topic", requestBody: json(repathBodySchema), responses: { "200": ok("{from, to, memories}"), ...errors } } },
      "/v1/topics/{path}": { delete: { summary: "delete an empty topic", parameters: [{ name: "path", in: "path", required: true, schema: { type: "string" } }], responses: { "200": ok("{path, deleted}"), ...errors } } },
      "/v1/pyramid": {
        get: {
          summary: "summary pyramid nodes",
          parameters: [{ name: "level", in: "query", schema: { type: "string", enum: ["day", "week", "month"] } }],
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
          ],
          responses: { "200": ok("{entities}"), ...errors },
        },
      },
      "/v1/stats": { get: { summary: "memories, chunks, terms, bytes, embedder", responses: { "200": ok("the stats") } } },
      "/v1/doctor": { get: { summary: "check every derived index against the tables (no repair)", responses: { "200": ok("{ok, checks}") } } },
      "/v1/pyramid:build": { post: { summary: "recompute dirty windows", responses: { "200": ok("{recomputed, written, removed, took_ms}") } } },
    },
  };
}
