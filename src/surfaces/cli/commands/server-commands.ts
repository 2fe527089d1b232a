/**
 * @module surfaces/cli/commands/server-commands
 * `cascade serve` (HTTP) and `cascade mcp` (Model Context Protocol on stdio). The HTTP and MCP stacks are imported
 * when their command runs, so that every other command starts without loading them.
 */
import cluster from "node:cluster";
import { type Command } from "commander";
import { MemorySpace } from "../../../index.js";
import { toolListText } from "../../mcp/tools.js";
import { integer, collect } from "../flags.js";
import { boundHeapGrowth, DEFAULT_HEAP_GROWTH_PERCENT } from "../../heap.js";
import { globalFlags, type CliContext } from "../context.js";
import { io } from "../io.js";
import { settings } from "../settings.js";

export function registerServerCommands(program: Command, { withEngine, mode }: CliContext): void {
  program
    .command("serve")
    .description("HTTP JSON API (loopback by default; a token is required on any other address)")
    .option("--host <host>", "address to listen on", "127.0.0.1")
    .option("--port <port>", "port (0 picks a free one)", integer("--port", 0, 65535), 7373)
    .option("--token <token>", "bearer token every route but /health requires (default $CASCADE_TOKEN)")
    .option("--allow-origin <origin>", "let web pages from this origin (https://app.example) call the API (repeatable)", collect)
    .option("--allow-host <name>", "accept this Host name too, e.g. a reverse proxy's (repeatable)", collect)
    .option("--max-namespaces <n>", "namespaces the server may create (default 1000)", integer("--max-namespaces", 0))
    .option("--open-namespaces <n>", "stores kept open at once (default 32)", integer("--open-namespaces", 1))
    .option("--heap-growth <percent>", `how far V8 lets the heap grow between full collections, in % of what survived the last (0: V8's own choice, up to 300 on a machine with memory to spare)`, integer("--heap-growth", 0), DEFAULT_HEAP_GROWTH_PERCENT)
    .option("--workers <n>", "server processes sharing the port and the store, searching in parallel (default 1; more than one a core gains nothing)", integer("--workers", 1))
    .action(async (o, cmd: Command) => {
      const { path, now, engine, file: config } = settings(globalFlags(cmd));
      const workers = o.workers ?? config.serve?.workers ?? 1;
      if (workers > 1 && cluster.isPrimary) {
        // the workers run this same command line; the primary only supervises them
        const { superviseWorkers } = await import("../../http/workers.js");
        await superviseWorkers(workers, (line) => io().stderr.write(`${line}\n`));
        return;
      }
      // each worker runs this command line too, and sizes its own heap
      boundHeapGrowth(o.heapGrowth);
      const space = new MemorySpace(path, {
        ...engine,
        now,
        limits: { maxNamespaces: o.maxNamespaces ?? config.serve?.maxNamespaces, openStores: o.openNamespaces ?? config.serve?.openNamespaces },
      });
      const { serveUntilSignal } = await import("../../http/serve.js");
      await serveUntilSignal(space, {
        host: o.host,
        port: o.port,
        token: o.token ?? io().env.CASCADE_TOKEN,
        allowOrigins: o.allowOrigin ?? config.serve?.allowOrigins,
        allowHosts: o.allowHost ?? config.serve?.allowHosts,
      });
    });

  program
    .command("mcp")
    .description(`Model Context Protocol server on stdio. Tools: ${toolListText()}`)
    .action(async (_o, cmd: Command) => {
      const { serveMcpOverStdio } = await import("../../mcp/server.js");
      await withEngine(cmd, (e) => serveMcpOverStdio(e));
    });
}
