/**
 * `npm test` on a machine without Chromium: the browser tests are skipped, named with the reason, and the run
 * passes; with CASCADE_REQUIRE_CHROMIUM=1 (set by .ci/run) the missing browser fails the run instead.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { runTestFile } from "./helpers.js";

const INSPECTOR_TESTS = new URL("./inspector.test.js", import.meta.url).pathname;

const run = (env: Record<string, string>) => runTestFile(INSPECTOR_TESTS, { CASCADE_CHROMIUM: "/nonexistent/chromium", CASCADE_REQUIRE_CHROMIUM: "", ...env });

test("without Chromium the browser tests are skipped with the reason, and the run passes", () => {
  const r = run({});
  assert.equal(r.status, 0, r.stdout);
  assert.match(r.stdout, /# SKIP no Chromium at \/nonexistent\/chromium \(install Debian's chromium/);
});

test("with CASCADE_REQUIRE_CHROMIUM=1 a missing Chromium fails the run, saying how to install it", () => {
  const r = run({ CASCADE_REQUIRE_CHROMIUM: "1" });
  assert.notEqual(r.status, 0);
  assert.match(r.stdout, /Chromium is not installed at \/nonexistent\/chromium/);
});

test(".ci/run installs Chromium and requires it", () => {
  const ci = readFileSync(new URL("../../.ci/run", import.meta.url), "utf8");
  assert.match(ci, /apt-get install -y --no-install-recommends chromium/);
  assert.match(ci, /^export CASCADE_REQUIRE_CHROMIUM=1$/m);
});
