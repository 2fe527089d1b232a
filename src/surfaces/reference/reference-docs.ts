/**
 * @module surfaces/reference/reference-docs
 * The three generated reference pages, as text: docs/CLI.md (command definitions), docs/HTTP.md (the OpenAPI
 * document) and docs/MCP.md (the MCP server's tools). write-reference.ts writes them; test/reference-docs.test.ts
 * compares them with the committed files.
 */
import { cliReference } from "./cli-reference.js";
import { httpReference } from "./http-reference.js";
import { mcpReference } from "./mcp-reference.js";

export interface ReferencePage {
  /** Relative to the repository's root. */
  path: string;
  text: string;
}

export async function referencePages(): Promise<ReferencePage[]> {
  return [
    { path: "docs/CLI.md", text: cliReference() },
    { path: "docs/HTTP.md", text: httpReference() },
    { path: "docs/MCP.md", text: await mcpReference() },
  ];
}
