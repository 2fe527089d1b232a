/**
 * Search options are defined once (query/options.ts) and derived by every surface: the OpenAPI document, the HTTP
 * body, the MCP tool and the CLI's help say the same field names, bounds and descriptions.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { RECALL_WIRE_NAMES, recallOptionsFromWire, recallOptionsSchema } from "../src/index.js";
import { openApiDocument } from "../src/surfaces/http/openapi.js";
import { searchBodySchema } from "../src/surfaces/http/schemas.js";
import { parseWith } from "../src/validate.js";
import { cli } from "./helpers.js";

test("the OpenAPI search body lists every wire option with the SDK's description", () => {
  const doc = openApiDocument() as any;
  const body = doc.paths["/v1/search"].post.requestBody.content["application/json"].schema;
  for (const [sdk, wire] of Object.entries(RECALL_WIRE_NAMES)) {
    assert.ok(body.properties[wire], `${wire} is in the document`);
    assert.equal(body.properties[wire].description, recallOptionsSchema.shape[sdk as keyof typeof RECALL_WIRE_NAMES].description, `${wire} is described as in the SDK`);
  }
  assert.deepEqual(body.required, ["query"]);
  assert.equal(body.properties.where, undefined, "the CLI's parsed conditions are not on the wire");
});

test("the HTTP body refuses what the SDK refuses, naming the wire field", () => {
  assert.throws(() => parseWith(searchBodySchema, { query: "x", k: 0 }), /k:/);
  assert.throws(() => parseWith(searchBodySchema, { query: "x", rrf_k: -1 }), /rrf_k:/);
  assert.throws(() => parseWith(searchBodySchema, { query: "x", asOf: "2026-01-01" }), /asOf/, "SDK spelling is not the wire's");
  assert.deepEqual(recallOptionsFromWire({ as_of: "2026-01-01", current_only: true, exclude_kinds: ["summary"] }), { asOf: "2026-01-01", currentOnly: true, excludeKinds: ["summary"] });
});

test("the CLI's search help is the schema's descriptions", () => {
  const help = cli(["search", "--help"]).stdout.replace(/\s+/g, " ");
  for (const option of ["asOf", "knownAt", "currentOnly", "under"] as const) assert.ok(help.includes(recallOptionsSchema.shape[option].description!), option);
});
