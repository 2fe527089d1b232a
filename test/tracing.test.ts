import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { context, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type ReadableSpan } from "@opentelemetry/sdk-trace";
import { openMemory, parseInstant, type Engine } from "../src/index.js";
import { tempDir } from "./helpers.js";

const NOW = "2026-06-20T09:00:00Z";
const SECRET_USER = "alice-7f3e";
const QUERY = "which database does the billing service use";

/** The spans as a tree of names under one root, children in start order. */
function children(spans: ReadableSpan[], parent: ReadableSpan): ReadableSpan[] {
  return spans.filter((s) => s.parentSpanContext?.spanId === parent.spanContext().spanId).sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);
}

describe("OpenTelemetry spans through a real SDK's in-memory exporter", () => {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  let engine: Engine;
  const texts = [
    "The billing service moved its database to PostgreSQL 16 in March.",
    "Billing keeps invoices for seven years; the database holds them in one table.",
    "The search team runs its index on SQLite with a nightly backup.",
    "Alice asked for a database migration plan for billing before the audit.",
  ];

  before(async () => {
    // what a host application does: a context manager (spans nest across await) and a provider
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    trace.setGlobalTracerProvider(provider);
    engine = await openMemory({ path: join(tempDir(), "traced.db"), namespace: "team-a", now: parseInstant("now", NOW) });
    await engine.rememberMany(texts.map((text, i) => ({ text, user: SECRET_USER, at: `2026-0${i + 2}-10` })));
    await engine.settlePyramid();
  });
  after(async () => {
    await engine.close();
    await provider.shutdown();
  });

  test("a search: one recall span, a child per channel, fusion, annotation and context, store calls below them", async () => {
    exporter.reset();
    const result = await engine.recall(QUERY, { k: 3, channels: ["bm25", "dense", "recency", "graph"], filter: { user: SECRET_USER } });
    assert.ok(result.hits.length > 0);
    const spans = exporter.getFinishedSpans();
    const roots = spans.filter((s) => s.parentSpanContext === undefined);
    assert.deepEqual(roots.map((s) => s.name), ["cascade.recall"]);
    const recall = roots[0];
    assert.equal(recall.attributes["cascade.namespace"], "team-a");
    assert.equal(recall.attributes["cascade.k"], 3);
    assert.deepEqual(recall.attributes["cascade.channels"], ["bm25", "dense", "recency", "graph"]);
    assert.equal(recall.attributes["cascade.hits"], result.hits.length);
    assert.equal(recall.attributes["cascade.query.chars"], QUERY.length);

    const below = children(spans, recall);
    const names = below.map((s) => s.name);
    for (const stage of ["cascade.fusion", "cascade.annotation", "cascade.context"]) assert.equal(names.filter((n) => n === stage).length, 1, `${stage} in ${names}`);
    // the stages in the order the pipeline runs them
    assert.ok(names.indexOf("cascade.fusion") < names.indexOf("cascade.annotation") && names.indexOf("cascade.annotation") < names.indexOf("cascade.context"));
    const channels = below.filter((s) => s.name === "cascade.channel");
    assert.deepEqual(channels.map((s) => s.attributes["cascade.channel"]).sort(), ["bm25", "dense", "graph", "recency"]);
    for (const c of channels) {
      const name = c.attributes["cascade.channel"] as "bm25";
      assert.equal(c.attributes["cascade.candidates"], result.channels[name]!.candidates, `${name}'s candidates`);
    }
    // the store calls of a channel are its children; those of the pipeline itself the recall's
    const bm25 = channels.find((c) => c.attributes["cascade.channel"] === "bm25")!;
    assert.ok(children(spans, bm25).some((s) => s.name.startsWith("cascade.store.")), "bm25 reads the store");
    // the hits are read (hydrated) once per search, by the first step that reads them: the final hits come from that read
    const annotation = below.find((s) => s.name === "cascade.annotation")!;
    assert.ok(children(spans, annotation).some((s) => s.name === "cascade.store.hydrate"), `hydrate under annotation: ${children(spans, annotation).map((s) => s.name)}`);
    assert.ok(names.includes("cascade.store.termStats"));
    const fusion = below.find((s) => s.name === "cascade.fusion")!;
    assert.ok((fusion.attributes["cascade.candidates"] as number) >= result.hits.length);
    assert.ok(children(spans, annotation).some((s) => s.name.startsWith("cascade.store.")));

    // never a text, the query or a scope value in any attribute
    const values = spans.flatMap((s) => Object.values(s.attributes).flat().map(String));
    for (const v of values) {
      assert.ok(!v.includes(SECRET_USER), `scope value in an attribute: ${v}`);
      assert.ok(!v.includes("billing") && !v.includes("database"), `text in an attribute: ${v}`);
    }
  });

  test("a write batch and a maintenance run are spans, with the store's calls inside them", async () => {
    exporter.reset();
    await engine.rememberMany([{ text: "The billing database gets a read replica in July.", user: SECRET_USER }, { text: "" }]);
    await engine.doctor();
    const spans = exporter.getFinishedSpans();
    const write = spans.find((s) => s.name === "cascade.write")!;
    assert.ok(write, spans.map((s) => s.name).join());
    assert.equal(write.parentSpanContext, undefined);
    assert.deepEqual([write.attributes["cascade.memories"], write.attributes["cascade.imported"], write.attributes["cascade.failed"]], [2, 1, 1]);
    assert.ok(children(spans, write).some((s) => s.name === "cascade.store.writeMemories"));
    const doctor = spans.find((s) => s.name === "cascade.maintenance" && s.attributes["cascade.task"] === "doctor")!;
    assert.equal(doctor.attributes["cascade.ok"], true);
    assert.ok(children(spans, doctor).some((s) => s.name === "cascade.store.doctor"));
    // the pyramid's refresh after the write ran as maintenance of its own (or inside the doctor's settle)
    assert.ok(spans.some((s) => s.name === "cascade.maintenance" && s.attributes["cascade.task"] === "pyramid_refresh"));
  });

  test("a failing call ends its span marked as an error, with the error's code and not its message", async () => {
    exporter.reset();
    await assert.rejects(engine.recall("   "), /query: must not be empty/);
    const [recall] = exporter.getFinishedSpans().filter((s) => s.name === "cascade.recall");
    assert.equal(recall.status.code, 2); // SpanStatusCode.ERROR
    assert.equal(recall.status.message, "INVALID_INPUT");
  });
});
