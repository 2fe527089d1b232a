/**
 * A backend may lack a capability and say so with UNSUPPORTED: the engine then searches without it and reports
 * which channel went without, instead of failing the search. Any other error still fails it.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { CascadeError, DEMO_NOW, Engine, SqliteStore, defaultGloveEmbedder, demoCorpus, parseInstant, type Store } from "../src/index.js";
import { fixedClock } from "../src/ports/clock.js";
import { unsupported } from "../src/errors.js";

/** The SQLite store with some methods replaced, as a backend lacking them would behave. */
function lacking(store: SqliteStore, methods: Partial<Record<keyof Store, (...args: unknown[]) => Promise<never>>>): Store {
  return new Proxy(store, { get: (target, key, receiver) => (key in methods ? methods[key as keyof Store] : Reflect.get(target, key, receiver)) }) as Store;
}

async function engineOver(store: Store): Promise<Engine> {
  const e = defaultGloveEmbedder();
  const engine = await Engine.create({ store, embedder: e, tokens: e, clock: fixedClock(parseInstant("now", DEMO_NOW)) }, {});
  await engine.rememberMany(demoCorpus);
  return engine;
}

test("a channel whose store lacks a capability reports UNSUPPORTED and the others still answer", async () => {
  const engine = await engineOver(
    lacking(new SqliteStore(":memory:"), {
      searchCurated: async () => {
        throw unsupported("curated search", "test");
      },
      similarityNull: async () => {
        throw unsupported("similarity sampling", "test");
      },
    }),
  );
  const r = await engine.recall("the puppy chewed my earphones", { k: 3 });
  assert.ok(r.hits.length > 0, "bm25, dense and late interaction still answer");
  assert.equal(r.channels.curated?.candidates, 0);
  assert.match(r.channels.curated?.unsupported ?? "", /curated search is not supported by the test store/);
  assert.equal(r.channels.bm25?.unsupported, undefined);
  assert.ok((r.channels.dense?.candidates ?? 0) > 0, "dense goes without its floor rather than without its list");
  await engine.close();
});

test("any other store error fails the search", async () => {
  const engine = await engineOver(
    lacking(new SqliteStore(":memory:"), {
      searchCurated: async () => {
        throw new CascadeError("STORE_ERROR", "disk on fire");
      },
    }),
  );
  await assert.rejects(engine.recall("earphones", { k: 3 }), /disk on fire/);
  await engine.close();
});
