/**
 * The Python client (clients/python) and the example built on it (examples/python-assistant) against a real
 * `cascade serve` (its own process, a temporary store, a token, a fixed clock). Without python3 >= 3.9 these tests
 * are skipped, naming the reason; with CASCADE_REQUIRE_PYTHON=1 (as .ci/run sets) they run and fail instead.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, describe, test } from "node:test";
import { serve, tempDir } from "./helpers.js";

const PYTHON = process.env.CASCADE_PYTHON || "python3";
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const NOW = "2026-06-20T09:00:00Z";
const TOKEN = "py-s3cret";

/** The interpreter's version as [major, minor], or why there is none to use. */
function pythonVersion(): [number, number] | string {
  const r = spawnSync(PYTHON, ["-c", "import sys; print(*sys.version_info[:2])"], { encoding: "utf8" });
  if (r.error || r.status !== 0) return `no ${PYTHON} (${r.error?.message ?? r.stderr.trim()})`;
  const [major, minor] = r.stdout.trim().split(" ").map(Number);
  return major > 3 || (major === 3 && minor >= 9) ? [major, minor] : `${PYTHON} is ${major}.${minor}; the client needs 3.9 or later`;
}

const version = pythonVersion();
const SKIP =
  typeof version === "string" && process.env.CASCADE_REQUIRE_PYTHON !== "1"
    ? `${version} (install Python 3.9+ or set CASCADE_PYTHON; CASCADE_REQUIRE_PYTHON=1 makes this a failure)`
    : false;

describe("the Python client against cascade serve", { skip: SKIP }, () => {
  let server: Awaited<ReturnType<typeof serve>>;
  const python = (args: string[], cwd: string, env: Record<string, string> = {}) => {
    // nothing written beside the sources (__pycache__), nothing read from the user's site-packages
    const r = spawnSync(PYTHON, ["-s", ...args], {
      cwd,
      encoding: "utf8",
      env: { ...process.env, CASCADE_URL: server.url, CASCADE_TOKEN: TOKEN, PYTHONDONTWRITEBYTECODE: "1", ...env },
    });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  };

  before(async () => {
    assert.equal(typeof version, "object", `Python is required here (CASCADE_REQUIRE_PYTHON=1): ${version}`);
    server = await serve(["--db", join(tempDir(), "py.db"), "--now", NOW], ["--token", TOKEN]);
  });
  after(() => server?.child.kill("SIGTERM"));

  test("its unittest suite passes: every method, the error paths, the coverage of /openapi.json", () => {
    const r = python(["-m", "unittest", "discover", "-s", "tests", "-t", ".", "-v"], join(ROOT, "clients/python"));
    assert.equal(r.status, 0, r.stderr);
    const ran = /^Ran (\d+) tests/m.exec(r.stderr);
    assert.ok(ran && Number(ran[1]) >= 29, r.stderr);
    assert.match(r.stderr, /^OK$/m);
    assert.match(r.stderr, /test_every_operation_has_a_method .* ok$/m);
  });

  test("the example assistant prints what it found, and a second run finds its notes already known", () => {
    const run = () => python(["assistant.py"], join(ROOT, "examples/python-assistant"), { PYTHONPATH: join(ROOT, "clients/python"), ASSISTANT_NAMESPACE: "assistant_test" });
    const answers = [
      "Q: When is the dentist appointment?",
      'A: The dentist moved my appointment to June 12 at 4pm. [noted 2026-06-01; replaces "The dentist appointment is on June 3 at 9am."]',
      "Q: What am I allergic to?",
      "A: I'm allergic to peanuts. [noted 2026-05-10]",
      "Q: When is Maya's birthday?",
      "A: My sister Maya's birthday is on July 14. [noted 2026-05-04]",
      "Q: Which seat do I like on a plane?",
      "A: I prefer aisle seats on flights. [noted 2026-06-02]",
    ];
    const first = run();
    assert.equal(first.status, 0, first.stderr);
    assert.deepEqual(first.stdout.trimEnd().split("\n"), ["Remembered 5 notes (0 already known).", ...answers]);
    const second = run();
    assert.equal(second.status, 0, second.stderr);
    assert.deepEqual(second.stdout.trimEnd().split("\n"), ["Remembered 0 notes (5 already known).", ...answers]);
  });

  test("the example says what went wrong, in one line, when the server refuses it", () => {
    const r = python(["assistant.py"], join(ROOT, "examples/python-assistant"), { PYTHONPATH: join(ROOT, "clients/python"), CASCADE_TOKEN: "wrong" });
    assert.equal(r.status, 1);
    assert.equal(r.stderr, "assistant: UNAUTHORIZED: missing or wrong bearer token\n");
  });
});
