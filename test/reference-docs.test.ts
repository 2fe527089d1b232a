/**
 * The reference pages in docs/ (issue 33, item 12): docs/CLI.md, docs/HTTP.md and docs/MCP.md are generated from the
 * command definitions, the OpenAPI document and the MCP server's tools. Regenerated here, they must equal the
 * committed files; and every command, every route the server answers and every tool must have its section there.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { MemorySpace } from "../src/index.js";
import { buildProgram } from "../src/surfaces/cli/program.js";
import { createHttpApp, defaultHttpOptions } from "../src/surfaces/http/app.js";
import { openApiDocument } from "../src/surfaces/http/openapi.js";
import { cliReference, commandPaths } from "../src/surfaces/reference/cli-reference.js";
import { operations } from "../src/surfaces/reference/http-reference.js";
import { listMcpTools } from "../src/surfaces/reference/mcp-reference.js";
import { referencePages } from "../src/surfaces/reference/reference-docs.js";
import { tempDir } from "./helpers.js";

const committed = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");
const headings = (markdown: string): Set<string> => new Set([...markdown.matchAll(/^## (.+)$/gm)].map((m) => m[1]));
const missing = (wanted: string[], markdown: string): string[] => wanted.filter((h) => !headings(markdown).has(h));

const commandHeadings = (program = buildProgram()) => commandPaths(program).filter(({ command }) => command.name() !== "help").map(({ path }) => `cascade ${path}`);

/** What the server answers, as OpenAPI spells a route: `/v1/:op{memories:batch}` → `/v1/memories:batch`, `/:id` → `/{id}`. */
function serverRoutes(): string[] {
  const app = createHttpApp(new MemorySpace(join(tempDir(), "routes.db")), { ...defaultHttpOptions, host: "127.0.0.1" });
  const routes = app.routes
    .filter((r) => r.method !== "ALL")
    // the inspector's scripts and styles: part of GET /, not an API
    .filter((r) => r.path !== "/assets/:name")
    .map((r) => `${r.method} ${r.path.replace(/\/:\w+\{([^}]*)\}/g, "/$1").replace(/\/:(\w+)/g, "/{$1}")}`);
  // `/v1/:op{topics:(move|merge)}` is two routes in the document
  return [...new Set(routes.flatMap((r) => {
    const alternatives = /\(([^)]*)\)/.exec(r);
    return alternatives ? alternatives[1].split("|").map((a) => r.replace(alternatives[0], a)) : [r];
  }))];
}

test("docs/CLI.md, docs/HTTP.md and docs/MCP.md are what npm run docs:reference writes", async () => {
  for (const page of await referencePages()) {
    assert.ok(committed(page.path) === page.text, `${page.path} is out of date: run npm run docs:reference`);
  }
});

test("every command has its section in docs/CLI.md", () => {
  const undocumented = missing(commandHeadings(), committed("docs/CLI.md"));
  assert.deepEqual(undocumented, [], `docs/CLI.md does not document ${undocumented.join(", ")}: run npm run docs:reference`);
});

test("a command added without regenerating is named as missing", () => {
  const program = buildProgram();
  program.command("frobnicate").description("a command nobody documented");
  assert.deepEqual(missing(commandHeadings(program), committed("docs/CLI.md")), ["cascade frobnicate"]);
  assert.match(cliReference(program), /^## cascade frobnicate\n\n```\ncascade frobnicate \[options\]\n```\n\na command nobody documented$/m);
});

test("every route the server answers is in the OpenAPI document and has its section in docs/HTTP.md", () => {
  const routes = serverRoutes();
  assert.ok(routes.includes("POST /v1/memories:forget") && routes.includes("POST /v1/topics:merge") && routes.includes("GET /v1/memories/{id}/history"), routes.join("\n"));
  const inDocument = new Set(operations(openApiDocument()).map((o) => `${o.method} ${o.path}`));
  const notInDocument = routes.filter((r) => !inDocument.has(r));
  assert.deepEqual(notInDocument, [], `the OpenAPI document (src/surfaces/http/openapi.ts) lacks ${notInDocument.join(", ")}`);
  const undocumented = missing(routes, committed("docs/HTTP.md"));
  assert.deepEqual(undocumented, [], `docs/HTTP.md does not document ${undocumented.join(", ")}: run npm run docs:reference`);
  assert.deepEqual([...inDocument].filter((r) => !routes.includes(r)), [], "the document names no route the server lacks");
});

test("every MCP tool the server offers has its section in docs/MCP.md", async () => {
  const tools = (await listMcpTools()).map((t) => t.name);
  assert.ok(tools.includes("memory_search") && tools.length >= 14, tools.join(", "));
  const undocumented = missing(tools, committed("docs/MCP.md"));
  assert.deepEqual(undocumented, [], `docs/MCP.md does not document ${undocumented.join(", ")}: run npm run docs:reference`);
});
