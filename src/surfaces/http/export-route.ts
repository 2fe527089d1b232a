/**
 * @module surfaces/http/export-route
 * `GET /v1/export?since=&until=&filter=KEY=VALUE`: the namespace's memories as JSONL (application/x-ndjson), the
 * lines of `cascade export`, streamed a record at a time. The route holds its own lease on the namespace until the
 * last line is sent (the request's lease ends when the handler returns, before the body is written).
 */
import type { Context, Hono } from "hono";
import { parseFilterArgs, type ExportOptions, type MemorySpace } from "../../index.js";
import { namespaceHeader } from "./namespace-header.js";

function exportOptionsFromQuery(c: Context): ExportOptions {
  const q = (name: string) => c.req.query(name) || undefined;
  const filters = c.req.queries("filter");
  return { since: q("since"), until: q("until"), where: filters?.length ? parseFilterArgs(filters, "filter") : undefined };
}

export function registerExportRoute(app: Hono, space: MemorySpace): void {
  app.get("/v1/export", async (c) => {
    const options = exportOptionsFromQuery(c);
    const lease = await space.acquire(namespaceHeader(c));
    const records = lease.engine.exportMemories(options);
    const line = (value: unknown) => new TextEncoder().encode(`${JSON.stringify(value)}\n`);
    let first: IteratorResult<unknown>;
    try {
      // read before answering, so that a bad option is a 400 rather than a stream cut short
      first = await records.next();
    } catch (err) {
      lease.release();
      throw err;
    }
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        if (first.done) {
          lease.release();
          controller.close();
        } else controller.enqueue(line(first.value));
      },
      async pull(controller) {
        try {
          const next = await records.next();
          if (next.done) {
            lease.release();
            controller.close();
          } else controller.enqueue(line(next.value));
        } catch (err) {
          lease.release();
          controller.error(err);
        }
      },
      async cancel() {
        await records.return(undefined);
        lease.release();
      },
    });
    return new Response(body, { headers: { "content-type": "application/x-ndjson; charset=utf-8" } });
  });
}
