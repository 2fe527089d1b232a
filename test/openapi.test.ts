/**
 * The OpenAPI document: generated from the schemas the server validates with, linted by a real OpenAPI linter
 * (Redocly's recommended rules) with no error and no warning, served without a token, and naming every operation.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { MemorySpace } from "../src/index.js";
import { openApiDocument } from "../src/surfaces/http/openapi.js";
import { startHttpServer } from "../src/surfaces/http/serve.js";
import { createHttpApp } from "../src/surfaces/http/app.js";
import { tempDir } from "./helpers.js";

test("Redocly's recommended rules find no error and no warning", async () => {
  const config = await createConfig({ extends: ["recommended"] });
  const problems = await lintFromString({ source: JSON.stringify(openApiDocument()), absoluteRef: "openapi.json", config });
  assert.deepEqual(problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location?.[0]?.pointer}`), []);
});

test("every operation has a unique operationId; every /v1 operation takes the namespace header; bodies are the servers' schemas", () => {
  const doc = openApiDocument() as any;
  const ids: string[] = [];
  for (const [path, methods] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(methods)) {
      ids.push(op.operationId);
      if (path.startsWith("/v1/")) assert.deepEqual(op.parameters[0], { $ref: "#/components/parameters/Namespace" }, `${method} ${path}`);
    }
  }
  assert.equal(new Set(ids).size, ids.length);
  const add = doc.paths["/v1/memories"].post.requestBody.content["application/json"].schema;
  assert.deepEqual(add.required, ["text"]);
  for (const field of ["title", "tags", "topic", "at", "speaker", "user", "agent", "metadata", "supersedes"]) assert.ok(add.properties[field], field);
  assert.ok(doc.paths["/v1/memories:batch"].post.requestBody.content["application/json"].schema.properties.memories.items.properties.text);
});

test("the document is served without the token; the API is not", async () => {
  const server = await startHttpServer(new MemorySpace(join(tempDir(), "o.db")), { host: "127.0.0.1", port: 0, token: "s3cret" });
  try {
    const doc = await fetch(`${server.url}/openapi.json`);
    assert.equal(doc.status, 200);
    assert.equal(((await doc.json()) as any).openapi, "3.1.0");
    assert.equal((await fetch(`${server.url}/v1/stats`)).status, 401);
  } finally {
    await server.close();
  }
});

test("every route the server answers is in the document (generated clients, the Python one among them, follow it)", () => {
  const app = createHttpApp(new MemorySpace(join(tempDir(), "r.db")), { maxBodyBytes: 1024, maxBatch: 10 });
  // Hono's spelling → OpenAPI's: `:id` → `{id}`, a literal segment held in a pattern (`:op{topics:(move|merge)}`) → each literal
  const spelled = (path: string) => {
    const literal = /\/:\w+\{([^}]+)\}$/.exec(path);
    if (!literal) return [path.replace(/\/:(\w+)/g, "/{$1}")];
    const [, pattern] = literal;
    const alternatives = /^(.*)\((.*)\)$/.exec(pattern);
    const names = alternatives ? alternatives[2].split("|").map((a) => alternatives[1] + a) : [pattern];
    return names.map((n) => path.slice(0, literal.index) + "/" + n);
  };
  const served = app.routes
    .filter((r) => r.method !== "ALL" && r.path !== "/assets/:name") // the inspector's scripts: part of the page at /
    .flatMap((r) => spelled(r.path).map((p) => `${r.method.toLowerCase()} ${p}`));
  const documented = Object.entries<any>(openApiDocument().paths).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m} ${path}`));
  assert.deepEqual(served.filter((r) => !documented.includes(r)), [], "routes the document does not describe");
  assert.deepEqual(documented.filter((d) => !served.includes(d)), [], "documented routes the server does not answer");
});
