#!/usr/bin/env node
/**
 * Sums a log written by scripts/cpu-probe.mjs: CPU seconds by kind of process (test files' own processes, CLI
 * processes by command, the scripts tests start, the build), then per test file its own process and the Node
 * processes it started (found through their parents).
 *
 *   node scripts/cpu-probe-report.mjs PROBE_LOG [TOP_FILES]
 */
import { readFileSync } from "node:fs";

const rows = readFileSync(process.argv[2], "utf8").trim().split("\n").map((l) => JSON.parse(l));
const top = Number(process.argv[3] ?? 25);
const script = (r) => r.argv[0] ?? "";
const isCli = (r) => script(r).endsWith("surfaces/cli/main.js");
const isTestFile = (r) => script(r).endsWith(".test.js");

function kind(r) {
  const s = script(r);
  if (isCli(r)) return "CLI processes";
  if (isTestFile(r)) return "test files' own processes";
  if (s.includes("run-tests.mjs")) return "the runner (scripts/run-tests.mjs)";
  if (s.includes("warm-caches")) return "warm-caches";
  if (s.includes("typescript") || s.endsWith("/tsc")) return "build (tsc)";
  if (s.includes("depcruise") || s.includes("dependency-cruiser")) return "import lint";
  if (s.includes("/test/")) return "scripts the tests start (dist/test/procs, fixtures)";
  if (s.includes("/bench/")) return "bench scripts the tests start";
  return `other (${s.replace(/.*\//, "") || "node -e"})`;
}

const sum = (map, key, cpu) => {
  const g = map.get(key) ?? { n: 0, cpu: 0 };
  g.n++;
  g.cpu += cpu;
  map.set(key, g);
};
const print = (title, map, limit = Infinity) => {
  console.log(`\n${title}\n   CPU s  count  each  what`);
  for (const [k, g] of [...map].sort((a, b) => b[1].cpu - a[1].cpu).slice(0, limit)) console.log(`${g.cpu.toFixed(1).padStart(8)} ${String(g.n).padStart(6)} ${(g.cpu / g.n).toFixed(2).padStart(5)}  ${k}`);
};

const kinds = new Map();
const commands = new Map();
for (const r of rows) {
  sum(kinds, kind(r), r.cpu);
  // the first lowercase word among its first arguments: a flag's value (a path, a date) is seldom one
  if (isCli(r)) sum(commands, r.argv.slice(1).find((a) => /^[a-z][a-z-]*$/.test(a)) ?? "(flags only)", r.cpu);
}
console.log(`${rows.length} processes, ${rows.reduce((a, r) => a + r.cpu, 0).toFixed(0)} CPU s`);
print("by kind", kinds);
print("CLI processes by command (the first lowercase word among its first eight arguments)", commands);

const byPid = new Map(rows.map((r) => [r.pid, r]));
const fileOf = (r) => {
  for (let cur = r, depth = 0; cur && depth < 8; cur = byPid.get(cur.ppid), depth++) if (isTestFile(cur)) return script(cur).replace(/.*dist\/test\//, "");
  return null;
};
const files = new Map();
for (const r of rows) {
  const f = fileOf(r);
  if (!f) continue;
  const g = files.get(f) ?? { own: 0, started: 0, n: 0 };
  if (isTestFile(r)) g.own += r.cpu;
  else {
    g.started += r.cpu;
    g.n++;
  }
  files.set(f, g);
}
console.log(`\ntest files, top ${top}: CPU s in all, of its own process, of the Node processes it started (count)`);
for (const [f, g] of [...files].sort((a, b) => b[1].own + b[1].started - (a[1].own + a[1].started)).slice(0, top)) {
  console.log(`${(g.own + g.started).toFixed(1).padStart(7)} ${g.own.toFixed(1).padStart(7)} ${g.started.toFixed(1).padStart(7)} (${g.n})  ${f}`);
}
