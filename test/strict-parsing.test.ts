/**
 * What the parsers used to let through or turn into something else: impossible offsets, dates and times,
 * non-object metadata, a byte-order mark, a directory given to import, and years below 100.
 */
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { formatInstant, parseInstant, parseJsonlLine, parseLocomoDate } from "../src/index.js";
import { cli, cliHere, tempDir } from "./helpers.js";

test("ISO instants: offsets within ±18:00, real dates, years 0001-0099 as written", () => {
  for (const bad of ["2026-06-03T10:00:00+99:99", "2026-06-03T10:00:00+19:00", "2026-06-03T10:00:00-05:60", "2026-02-30", "2026-06-03T24:00:00Z", "2026-06-03T10:61Z"]) {
    assert.throws(() => parseInstant("at", bad), /^CascadeError: at: /, bad);
  }
  assert.equal(formatInstant(parseInstant("at", "2026-06-03T10:00:00+05:30")), "2026-06-03T04:30:00Z");
  assert.equal(formatInstant(parseInstant("at", "2026-06-03T10:00:00-1200")), "2026-06-03T22:00:00Z");
  for (const year of ["0001-01-01", "0042-03-04", "0099-12-31"]) {
    assert.equal(formatInstant(parseInstant("at", year)), `${year}T00:00:00Z`);
  }
  assert.equal(formatInstant(parseInstant("at", "0004-02-29")), "0004-02-29T00:00:00Z", "year 4 was a leap year");
});

test("LoCoMo session dates: impossible dates and times are refused, not rolled over", () => {
  assert.equal(new Date(parseLocomoDate("1:47 pm on 18 May, 2023")).toISOString(), "2023-05-18T13:47:00.000Z");
  assert.equal(new Date(parseLocomoDate("12:05 am on 1 January, 2023")).toISOString(), "2023-01-01T00:05:00.000Z");
  for (const bad of ["1:00 pm on 30 February, 2023", "99:99 pm on 18 May, 2023", "13:00 pm on 18 May, 2023", "0:30 am on 18 May, 2023", "1:00 pm on 1 May, 0000"]) {
    assert.throws(() => parseLocomoDate(bad), /^CascadeError: session date: /, bad);
  }
});

test("JSONL lines: a byte-order mark is skipped; metadata must be an object even beside a ref", () => {
  const bom = parseJsonlLine('\uFEFF{"text": "first line", "ref": "r1"}', 1);
  assert.deepEqual(bom, { line: 1, input: { text: "first line", metadata: { ref: "r1" } } });
  const stringMeta = parseJsonlLine('{"text": "x", "ref": "r2", "metadata": "abc"}', 2);
  assert.ok(stringMeta && "input" in stringMeta);
  assert.equal(stringMeta.input.metadata, "abc", "left for validation to refuse, never spread into {0: 'a', ...}");
});

test("import: BOM files work, non-object metadata is a failed line, a directory is exit 2", async () => {
  const dir = tempDir();
  const db = join(dir, "p.db");
  writeFileSync(join(dir, "bom.jsonl"), '\uFEFF{"text": "the first line has a BOM"}\n{"text": "x", "ref": "r", "metadata": "abc"}\n{"text": "fine"}\n');
  const r = cli(["--db", db, "import", join(dir, "bom.jsonl"), "--json"]);
  assert.equal(r.status, 1, "one line failed: exit 1");
  assert.equal(r.json.imported, 2);
  assert.deepEqual(r.json.failed, [{ line: 2, error: "metadata: must be a JSON object (got string)" }]);
  mkdirSync(join(dir, "folder"));
  for (const format of ["jsonl", "locomo"]) {
    const d = await cliHere(["--db", db, "import", join(dir, "folder"), "--format", format, "--json"]);
    assert.equal(d.status, 2, `${format}: ${d.stderr}`);
    assert.match(d.stderr, /is a directory/);
  }
});
