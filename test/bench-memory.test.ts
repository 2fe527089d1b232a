import assert from "node:assert/strict";
import { test } from "node:test";
import { defaultGloveEmbedder } from "../src/index.js";
import { streamedCorpus, syntheticCorpus } from "../src/bench/corpus.js";
import { MemoryTrace } from "../src/bench/memory-trace.js";

test("the streamed corpus is the held one: same memories in the same order, same queries, whatever the batch size", () => {
  const vocabulary = [...defaultGloveEmbedder().vocabulary()];
  for (const [memories, queries, seed, size] of [
    [3001, 60, 42, 1000],
    [257, 10, 7, 2000],
    [1, 3, 1, 1],
  ]) {
    const held = syntheticCorpus({ memories, queries, seed, vocabulary });
    const streamed = streamedCorpus({ memories, queries, seed, vocabulary });
    assert.equal(streamed.memories, memories);
    assert.deepEqual(streamed.queries, held.queries);
    const batches = [...streamed.batches(size)];
    assert.ok(batches.every((b) => b.length <= size));
    assert.deepEqual(batches.flat(), held.memories);
    // a second reading gives the same memories again
    assert.deepEqual([...streamed.batches(size)].flat(), held.memories);
  }
});

test("a memory trace tags samples with their phase and reports each phase's highest RSS and heap", () => {
  const MB = 1e6;
  const usage = [100, 300, 200, 250, 150, 400, 120, 130];
  let call = 0;
  let clock = 0;
  let max = 0;
  const trace = new MemoryTrace(
    0,
    () => {
      const rss = usage[call++] * MB;
      max = Math.max(max, rss);
      return { rss, heapTotal: rss / 2, heapUsed: rss / 4, external: 10 * MB, arrayBuffers: 5 * MB };
    },
    () => max,
    () => clock,
  );
  // start: 100
  clock = 10;
  trace.enter("ingest"); // start: 300, ingest: 200
  trace.sample(); // ingest: 250
  clock = 20;
  trace.enter("queries"); // ingest: 150, queries: 400
  trace.tick(); // no interval: no sample
  trace.stop(); // queries: 120
  trace.stop(); // nothing more
  assert.equal(trace.samples.length, 7);
  const phases = trace.byPhase();
  assert.deepEqual(Object.keys(phases), ["start", "ingest", "queries"]);
  assert.equal(phases.start.peak.rss, 300);
  assert.equal(phases.ingest.samples, 3);
  assert.equal(phases.ingest.peak.rss, 250);
  assert.equal(phases.ingest.max_heap_total, 125);
  assert.equal(phases.queries.peak.rss, 400);
  assert.equal(phases.queries.peak.t, 20);
  assert.equal(phases.queries.peak.max_rss, 400);
  assert.equal(phases.queries.peak.external, 10);
  assert.equal(phases.queries.max_heap_used, 100);
});

test("a memory trace with an interval samples on tick once the interval has passed", () => {
  let clock = 0;
  const trace = new MemoryTrace(50, () => ({ rss: 1, heapTotal: 1, heapUsed: 1, external: 0, arrayBuffers: 0 }), () => 1, () => clock);
  trace.tick();
  clock = 49;
  trace.tick();
  assert.equal(trace.samples.length, 1);
  clock = 50;
  trace.tick();
  assert.equal(trace.samples.length, 2);
  trace.stop();
  assert.equal(trace.samples.length, 3);
});
