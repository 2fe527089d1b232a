/**
 * @module tracing
 * OpenTelemetry spans through `@opentelemetry/api` only: until the host application registers a tracer provider
 * (and, for spans to nest across `await`, a context manager: the Node SDK registers both), every call here is
 * the API's no-op and costs a small object and a function call. Cascade never registers a provider itself.
 *
 * Span names are `cascade.<what>`; attributes say how much and of what (channel, candidates, k, namespace,
 * counts), never a memory's or a query's text, nor the value of a scope (user, agent, session...).
 */
import { createRequire } from "node:module";
import type { Attributes, Span, SpanContext, Tracer } from "@opentelemetry/api";

export type { Span } from "@opentelemetry/api";

type Api = typeof import("@opentelemetry/api");

/**
 * Where `@opentelemetry/api` (every copy of major version 1, ESM or CommonJS) keeps what a host registered: a
 * tracer provider, a context manager, a propagator. While it is absent nothing was registered and every span
 * would be the API's no-op, so the API's fifty modules are not loaded at all (a CLI command pays for them only
 * when a host traces). Once it is present the API is required (its CommonJS build: this call may be synchronous)
 * and reads the same global.
 */
const GLOBAL_KEY = Symbol.for("opentelemetry.js.api.1");
const requireHere = createRequire(import.meta.url);
let loaded: { api: Api; tracer: Tracer } | undefined;

function tracer(): Tracer | undefined {
  if (loaded) return loaded.tracer;
  if ((globalThis as Record<symbol, unknown>)[GLOBAL_KEY] == null) return undefined;
  const api = requireHere("@opentelemetry/api") as Api;
  loaded = { api, tracer: api.trace.getTracer("cascade-memory") };
  return loaded.tracer;
}

/** What the API's no-op tracer hands out: an invalid, non-recording span whose every method does nothing. */
const INVALID_CONTEXT: SpanContext = { traceId: "00000000000000000000000000000000", spanId: "0000000000000000", traceFlags: 0 };
const NOOP_SPAN: Span = {
  spanContext: () => INVALID_CONTEXT,
  setAttribute: () => NOOP_SPAN,
  setAttributes: () => NOOP_SPAN,
  addEvent: () => NOOP_SPAN,
  addLink: () => NOOP_SPAN,
  addLinks: () => NOOP_SPAN,
  setStatus: () => NOOP_SPAN,
  updateName: () => NOOP_SPAN,
  end: () => {},
  isRecording: () => false,
  recordException: () => {},
};

/**
 * Runs `work` inside a span named `name` (the active span while it runs, so spans started inside it are its
 * children); the span ends when `work` settles, and a throw marks it as an error.
 */
export function inSpan<T>(name: string, attributes: Attributes, work: (span: Span) => Promise<T>): Promise<T> {
  const t = tracer();
  // untraced: the no-op span, and a promise as the no-op tracer's path gives (a synchronous throw rejects it)
  if (!t) return (async () => work(NOOP_SPAN))();
  return t.startActiveSpan(name, { attributes }, async (span) => {
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
  const t = tracer();
  if (!t) return work();
  return t.startActiveSpan(name, (span) => {
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
  span.setStatus({ code: loaded ? loaded.api.SpanStatusCode.ERROR : 2, message: typeof code === "string" ? code : err instanceof Error ? err.name : "error" });
}
