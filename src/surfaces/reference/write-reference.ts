/**
 * @module surfaces/reference/write-reference
 * `npm run docs:reference`: writes docs/CLI.md, docs/HTTP.md and docs/MCP.md from the definitions they describe.
 * Run it after adding or changing a command, a route or a tool (test/reference-docs.test.ts fails until then).
 */
import { writeFileSync } from "node:fs";
import { referencePages } from "./reference-docs.js";

// dist/src/surfaces/reference/ → the repository's root
const root = new URL("../../../../", import.meta.url);
for (const page of await referencePages()) {
  writeFileSync(new URL(page.path, root), page.text);
  console.log(`wrote ${page.path}`);
}
