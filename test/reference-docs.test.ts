/**
 * The reference pages in docs/: docs/CLI.md, docs/HTTP.md and docs/MCP.md are generated from the
 * command definitions, the OpenAPI document and the MCP server's tools. Regenerated here, they must equal the
 * committed files; and every command, every route and every tool must have its section there.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { buildProgram } from "../src/surfaces/cli/program.js";
import { openApiDocument } from "../src/surfaces/http/openapi.js";
import { cliReference, commandPaths } from "../src/surfaces/reference/cli-reference.js";
import { operations } from "../src/surfaces/reference/http-reference.js";
import { listMcpTools } from "../src/surfaces/reference/mcp-reference.js";
import { referencePages } from "../src/surfaces/reference/reference-docs.js";

const committed = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");
const headings = (markdown: string): Set<string> => new Set([...markdown.matchAll(/^## (.+)$/gm)].map((m) => m[1]));
const missing = (wanted: string[], markdown: string): string[] => wanted.filter((h) => !headings(markdown).has(h));

const commandHeadings = (program = buildProgram()) => commandPaths(program).filter(({ command }) => command.name() !== "help").map(({ path }) => `cascade ${path}`);

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

test("every route of the OpenAPI document has its section in docs/HTTP.md", () => {
  // that the document holds every route the server answers is test/openapi.test.ts's check
  const routes = operations(openApiDocument()).map((o) => `${o.method} ${o.path}`);
  assert.ok(routes.includes("POST /v1/memories:forget") && routes.includes("POST /v1/topics:merge"), routes.join("\n"));
  const undocumented = missing(routes, committed("docs/HTTP.md"));
  assert.deepEqual(undocumented, [], `docs/HTTP.md does not document ${undocumented.join(", ")}: run npm run docs:reference`);
});

test("every MCP tool the server offers has its section in docs/MCP.md", async () => {
  const tools = (await listMcpTools()).map((t) => t.name);
  assert.ok(tools.includes("memory_search") && tools.length >= 14, tools.join(", "));
  const undocumented = missing(tools, committed("docs/MCP.md"));
  assert.deepEqual(undocumented, [], `docs/MCP.md does not document ${undocumented.join(", ")}: run npm run docs:reference`);
});
