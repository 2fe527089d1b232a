/**
 * `npm test` without a PostgreSQL server: the server tests are skipped, named with the reason, and the run
 * passes; with CASCADE_REQUIRE_PG=1 (set by .ci/run, which starts a server) a missing server fails the run.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { runTestFile } from "./helpers.js";

const SERVER_TESTS = new URL("./postgres-server.test.js", import.meta.url).pathname;

const run = (env: Record<string, string>) => runTestFile(SERVER_TESTS, { CASCADE_PG_URL: "", CASCADE_REQUIRE_PG: "", ...env });

test("without CASCADE_PG_URL the server tests are skipped with the reason, and the run passes", () => {
  const r = run({});
  assert.equal(r.status, 0, r.stdout);
  assert.match(r.stdout, /# SKIP needs a PostgreSQL server \(ltree; pgvector optional\): set CASCADE_PG_URL/);
});

test("with CASCADE_REQUIRE_PG=1 a missing server fails the run, saying what is missing", () => {
  const r = run({ CASCADE_REQUIRE_PG: "1" });
  assert.notEqual(r.status, 0);
  assert.match(r.stdout + r.stderr, /CASCADE_REQUIRE_PG=1 but CASCADE_PG_URL is not set/);
});

test(".ci/run starts a PostgreSQL server for the suite and requires it", () => {
  const ci = readFileSync(new URL("../../.ci/run", import.meta.url), "utf8");
  assert.match(ci, /scripts\/pg-test-server\.sh start/);
  assert.match(ci, /^export CASCADE_REQUIRE_PG=1$/m);
});
