/**
 * @module surfaces/mcp/invalid-params
 * A request whose params are not what its method takes (`tools/call` without params or without a tool name)
 * answered as JSON-RPC says: -32602 (invalid params) and one line naming the field. The SDK checks params with
 * zod inside each method's handler and reports the failure as -32603 (internal error) carrying the whole zod
 * issue list as its message.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ErrorCode } from "@modelcontextprotocol/sdk/types.js";

type Handler = (request: unknown, extra: unknown) => Promise<unknown>;
interface Issue {
  path: PropertyKey[];
  message: string;
}

/** zod's error, recognised by name and shape: the SDK parses with zod/v4-mini, whose error is `$ZodError`. */
const zodIssues = (err: unknown): Issue[] | null => {
  const issues = (err as { name?: unknown; issues?: unknown } | null)?.issues;
  const name = (err as { name?: unknown } | null)?.name;
  return (name === "ZodError" || name === "$ZodError") && Array.isArray(issues) && issues.length > 0 ? (issues as Issue[]) : null;
};

/** Wraps every request handler the server has (call once all tools are registered). */
export function answerInvalidParams(server: McpServer): void {
  // the SDK keeps its handlers in a private map and offers no hook around the params check
  const handlers = (server.server as unknown as { _requestHandlers: Map<string, Handler> })._requestHandlers;
  for (const [method, handler] of handlers) {
    handlers.set(method, async (request, extra) => {
      try {
        return await handler(request, extra);
      } catch (err) {
        const issues = zodIssues(err);
        if (!issues) throw err;
        const [first] = issues;
        const field = first.path.map(String).join(".") || "params";
        // the SDK answers an error's own `code` and `message` (an McpError would prefix "MCP error -32602: ")
        throw Object.assign(new Error(`Invalid params: ${method}: ${field}: ${first.message.replace(/\s+/g, " ")}`), { code: ErrorCode.InvalidParams });
      }
    });
  }
}
