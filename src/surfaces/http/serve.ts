/**
 * @module surfaces/http/serve
 * Listens with Node's HTTP server. Loopback by default; any other address requires a token. SIGTERM and SIGINT
 * stop accepting connections, let requests in flight finish (so an acknowledged write is a committed write),
 * then close the stores.
 */
import { isServerWorker } from "./workers.js";
import { serve } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { CascadeError, type MemorySpace } from "../../index.js";
import { createHttpApp, defaultHttpOptions, type HttpOptions } from "./app.js";

const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

export interface RunningServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startHttpServer(
  space: MemorySpace,
  options: { host: string; port: number } & Partial<HttpOptions>,
): Promise<RunningServer> {
  if (!LOOPBACK.has(options.host) && !options.token) {
    throw new CascadeError("INVALID_INPUT", `--host ${options.host} is not loopback: set --token (or CASCADE_TOKEN) to listen there`, { field: "host" });
  }
  const app = createHttpApp(space, { ...defaultHttpOptions, ...options });
  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: options.host, port: options.port }, () => resolve(s as Server));
    (s as Server).once("error", reject);
  });
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | null = null;
  return {
    port,
    url: `http://${options.host.includes(":") ? `[${options.host}]` : options.host}:${port}`,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve()); // waits for requests in flight
        server.closeIdleConnections();
      }).then(() => space.close());
      return closing;
    },
  };
}

/** Runs until SIGTERM or SIGINT, then shuts down gracefully. */
export async function serveUntilSignal(space: MemorySpace, options: { host: string; port: number } & Partial<HttpOptions>): Promise<void> {
  const running = await startHttpServer(space, options);
  process.stderr.write(`cascade: serving ${running.url} (${options.token ? "bearer token required" : "no token: loopback only"})\n`);
  await new Promise<void>((resolve) => {
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      process.stderr.write(`cascade: ${signal}: finishing requests in flight\n`);
      running.close().then(resolve);
    };
    process.once("SIGTERM", () => stop("SIGTERM"));
    process.once("SIGINT", () => stop("SIGINT"));
    // a worker of `serve --workers` whose primary was killed has no one left to stop it
    if (isServerWorker()) process.once("disconnect", () => stop("the primary process is gone"));
  });
  // a worker's channel to its primary keeps it alive: let go of it once the server is closed
  if (isServerWorker() && process.connected) process.disconnect();
}
