/**
 * The cost of writing conversation memories one at a time, detection included: every scenario file's memories
 * (test/fixtures/scenario-changes*.jsonl) added in order, each file into a fresh store, as an assistant would add
 * them. Prints the process's CPU seconds and the wall time for all of them; run it alternately on two builds to
 * compare (the machine's load moves both).
 * Usage: node dist/bench/scenario-write.js [FIXTURES_DIR]
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openMemory } from "../src/index.js";

const dir = process.argv[2] ?? join(import.meta.dirname ?? new URL(".", import.meta.url).pathname, "..", "..", "test", "fixtures");
const files = (existsSync(dir) ? readdirSync(dir) : []).filter((f) => /^scenario-changes.*\.jsonl$/.test(f)).sort();
if (files.length === 0) {
  process.stderr.write(`scenario-write: no scenario-changes*.jsonl in ${dir}\n`);
  process.exit(2);
}
const cpu = process.cpuUsage();
const started = Date.now();
let written = 0;
for (const file of files) {
  const rows = readFileSync(join(dir, file), "utf8").trim().split("\n").map((line) => JSON.parse(line) as Record<string, string>).filter((r) => r.type === "memory");
  const home = mkdtempSync(join(tmpdir(), "cascade-scenario-write-"));
  const engine = await openMemory({ path: join(home, "m.db"), now: Date.parse("2026-06-01T00:00:00Z") });
  try {
    for (const r of rows) await engine.remember({ text: r.text, at: r.at, user: r.user, role: r.role, speaker: r.speaker, session: r.session });
    written += rows.length;
  } finally {
    await engine.close();
    rmSync(home, { recursive: true, force: true });
  }
}
const used = process.cpuUsage(cpu);
console.log(`${written} memories from ${files.length} files: ${((used.user + used.system) / 1e6).toFixed(1)} s CPU, ${((Date.now() - started) / 1000).toFixed(1)} s wall`);
