/** One schema checks engine options given in code and in the config file: a value refused in one is refused in the other. */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { CascadeError, openMemory } from "../src/index.js";
import { resolveEngineConfig } from "../src/api/engine-config.js";
import { cli, tempDir } from "./helpers.js";

const refused: [string, Record<string, unknown>, RegExp][] = [
  ["an unknown option", { pyramidd: { enabled: false } }, /engine.*pyramidd/],
  ["a floor of the wrong type", { dense: { denseZ: "high" } }, /dense\.denseZ/],
  ["a threshold out of range", { detection: { edgeThreshold: 3 } }, /detection\.edgeThreshold/],
  ["a negative search depth", { search: { depth: -1 } }, /search.*depth/],
  ["an unknown zone", { pyramid: { zone: "Mars/Olympus" } }, /pyramid\.zone/],
];

for (const [what, config, message] of refused) {
  test(`SDK options: ${what} is refused with the field named`, async () => {
    assert.throws(() => resolveEngineConfig(config as never), (err: unknown) => err instanceof CascadeError && err.code === "INVALID_INPUT" && message.test(err.message));
    await assert.rejects(openMemory({ path: ":memory:", ...(config as object) }), (err: unknown) => err instanceof CascadeError && message.test(err.message));
  });
}

test("the same value in the config file is refused by the CLI with exit code 2", () => {
  const dir = tempDir();
  const config = join(dir, "cascade.config.json");
  writeFileSync(config, JSON.stringify({ engine: { dense: { denseZ: "high" } } }));
  const r = cli(["--db", join(dir, "m.db"), "--config", config, "search", "anything"]);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /denseZ/);
});

test("valid options resolve over the defaults, objects that are not data pass untouched", () => {
  const judge = { judge: async () => ({ revises: false, confidence: 0, reason: "" }) };
  const r = resolveEngineConfig({ demotion: 0.25, search: { k: 5 }, judge: judge as never, entities: { enabled: false } });
  assert.equal(r.demotion, 0.25);
  assert.equal(r.search.k, 5);
  assert.equal(r.search.rrfK, 60);
  assert.equal(r.judge, judge);
  assert.equal(r.extractor, null);
});
