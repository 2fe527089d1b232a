/**
 * @module tracing
 * OpenTelemetry spans through `@opentelemetry/api` only: until the host application registers a tracer provider
 * (and, for spans to nest across `await`, a context manager: the Node SDK registers both), every call here is
 * the API's no-op and costs a small object and a function call. Cascade never registers a provider itself.
 *
 * Span names are `cascade.<what>`; attributes say how much and of what (channel, candidates, k, namespace,
 * counts), never a memory's or a query's text, nor the value of a scope (user, agent, session...).
 */
import { SpanStatusCode, trace, type Attributes, type Span } from "@opentelemetry/api";

const tracer = trace.getTracer("cascade-memory");

export type { Span } from "@opentelemetry/api";

/**
 * Runs `work` inside a span named `name` (the active span while it runs, so spans started inside it are its
 * children); the span ends when `work` settles, and a throw marks it as an error.
 */
export function inSpan<T>(name: string, attributes: Attributes, work: (span: Span) => Promise<T>): Promise<T> {
  return tracer.startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await work(span);
    } catch (err) {
      failed(span, err);
      throw err;
    } finally {
      span.end();
    }
  });
}

/**
 * As `inSpan` for a call that may or may not return a promise (a store method): a synchronous answer ends the
 * span at once and is returned as it is, not turned into a promise.
 */
export function inSpanSyncOrAsync<T>(name: string, work: () => T): T {
  return tracer.startActiveSpan(name, (span) => {
    let result: T;
    try {
      result = work();
    } catch (err) {
      failed(span, err);
      span.end();
      throw err;
    }
    if (result && typeof (result as { then?: unknown }).then === "function") {
      return (result as unknown as Promise<unknown>).then(
        (value) => (span.end(), value),
        (err: unknown) => {
          failed(span, err);
          span.end();
          throw err;
        },
      ) as T;
    }
    span.end();
    return result;
  });
}

/** Attributes without the undefined ones (a namespace the caller did not name, say). */
export function attributes(values: Record<string, string | number | boolean | string[] | undefined>): Attributes {
  const out: Attributes = {};
  for (const [key, value] of Object.entries(values)) if (value !== undefined) out[key] = value;
  return out;
}

/** Marks a span failed with the error's code or class, not its message: a message may quote an input. */
function failed(span: Span, err: unknown): void {
  const code = (err as { code?: unknown } | null)?.code;
  span.setStatus({ code: SpanStatusCode.ERROR, message: typeof code === "string" ? code : err instanceof Error ? err.name : "error" });
}
