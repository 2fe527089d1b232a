/**
 * `npm test` on a machine without Python: the Python client's tests are skipped, naming the reason, and the run
 * passes; with CASCADE_REQUIRE_PYTHON=1 (set by .ci/run) the missing interpreter fails the run instead.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { runTestFile } from "./helpers.js";

const PYTHON_TESTS = new URL("./python-client.test.js", import.meta.url).pathname;

const run = (env: Record<string, string>) => runTestFile(PYTHON_TESTS, { CASCADE_PYTHON: "/nonexistent/python3", CASCADE_REQUIRE_PYTHON: "", ...env });

test("without python3 the Python client's tests are skipped with the reason, and the run passes", () => {
  const r = run({});
  assert.equal(r.status, 0, r.stdout);
  assert.match(r.stdout, /# SKIP no \/nonexistent\/python3 \(.*ENOENT\) \(install Python 3\.9\+ or set CASCADE_PYTHON; CASCADE_REQUIRE_PYTHON=1 makes this a failure\)/);
});

test("with CASCADE_REQUIRE_PYTHON=1 a missing python3 fails the run, saying so", () => {
  const r = run({ CASCADE_REQUIRE_PYTHON: "1" });
  assert.notEqual(r.status, 0);
  assert.match(r.stdout, /Python is required here \(CASCADE_REQUIRE_PYTHON=1\): no \/nonexistent\/python3/);
});

test(".ci/run requires Python", () => {
  const ci = readFileSync(new URL("../../.ci/run", import.meta.url), "utf8");
  assert.match(ci, /^export CASCADE_REQUIRE_PYTHON=1$/m);
});
