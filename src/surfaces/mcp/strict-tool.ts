/**
 * @module surfaces/mcp/strict-tool
 * Registers an MCP tool whose arguments are checked strictly: an argument the tool does not know (a typo such
 * as `asOf` for `as_of`) is refused, as the HTTP API refuses an unknown field, instead of being dropped unseen.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

type ToolResult = { content: { type: "text"; text: string }[]; isError?: boolean };

export function registerStrictTool<Shape extends z.ZodRawShape>(
  server: McpServer,
  name: string,
  config: { annotations: ToolAnnotations; description: string; inputSchema: Shape },
  handler: (args: z.infer<z.ZodObject<Shape>>) => Promise<ToolResult>,
): void {
  server.registerTool(name, { ...config, inputSchema: z.object(config.inputSchema).strict() }, handler as never);
}
