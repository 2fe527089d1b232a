/**
 * `cascade migrate` from a store another process is writing. Read page by page, the copy
 * met an edge naming a memory written after the memories' pages were read, failed half-way ("names …, which was
 * not copied before it") and left a half-written target. A SQLite source is now copied from a snapshot.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { openMemory, parseInstant } from "../src/index.js";
import { cli, tempDir } from "./helpers.js";

const INDEX = new URL("../src/index.js", import.meta.url).href;

test("migrate from a store being written copies a consistent snapshot and leaves no temporary copy", async () => {
  const dir = tempDir();
  const source = join(dir, "busy.db");
  const engine = await openMemory({ path: source, now: parseInstant("now", "2026-06-03T10:00:00Z") });
  await engine.rememberMany(Array.from({ length: 200 }, (_, i) => ({ text: `Seed note ${i}: the ${i % 5} service moved to rack ${i % 17}`, at: `2026-05-${String(1 + (i % 28)).padStart(2, "0")}T10:00:00Z` })));
  await engine.close();
  // a writer process adding batches (with revision detection, so edges too) the whole time
  const script = join(dir, "writer.mjs");
  writeFileSync(
    script,
    `import { openMemory } from ${JSON.stringify(INDEX)};
const e = await openMemory({ path: ${JSON.stringify(source)} });
let i = 0;
process.stdout.write("ready\\n");
for (;;) await e.rememberMany(Array.from({ length: 10 }, () => ({ text: \`Writer note \${i++}: the \${i % 5} service moved to rack \${i % 17}\` })));
`,
  );
  const writer = spawn(process.execPath, [script], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    await new Promise<void>((resolve) => writer.stdout!.once("data", () => resolve()));
    // the copy's temporary folder goes where TMPDIR says: a folder of this test's own, which no other process of
    // the machine writes in (counted in the shared one, another run's snapshot made it fail)
    const tmp = join(dir, "tmp");
    mkdirSync(tmp);
    const target = join(dir, "copy.db");
    const r = cli(["migrate", "--from", source, "--to", target, "--batch", "20", "--json"], { env: { TMPDIR: tmp } });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.json.ok, true);
    assert.ok(r.json.namespaces[0].target.memories >= 200);
    assert.deepEqual(readdirSync(tmp), [], "the snapshot is removed");
    assert.ok(existsSync(target));
  } finally {
    writer.kill();
  }
});
