/**
 * One store seen through every surface at once, for tests that hold an input to the same answer everywhere: the
 * SDK (an engine), HTTP (a server on loopback) and MCP (`cascade mcp` over stdio), all at a fixed `now`, the store
 * holding one memory. The CLI is run per call (helpers.ts `cli`).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { MemorySpace, openMemory, parseInstant, type Engine } from "../src/index.js";
import { startHttpServer, type RunningServer } from "../src/surfaces/http/serve.js";

const CLI = new URL("../src/surfaces/cli/main.js", import.meta.url).pathname;

export interface EverySurface {
  engine: Engine;
  server: RunningServer;
  mcp: Client;
  close(): Promise<void>;
}

export async function openEverySurface(db: string, now: string): Promise<EverySurface> {
  const engine = await openMemory({ path: db, now: parseInstant("now", now) });
  await engine.remember({ text: "The deploy freeze starts on Friday.", at: "2026-06-01" });
  const server = await startHttpServer(new MemorySpace(db, { now: parseInstant("now", now) }), { host: "127.0.0.1", port: 0 });
  const mcp = new Client({ name: "cascade-test", version: "1.0.0" });
  await mcp.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp", "--db", db, "--now", now], stderr: "pipe" }));
  return {
    engine,
    server,
    mcp,
    async close() {
      await mcp.close();
      await server.close();
      await engine.close();
    },
  };
}
