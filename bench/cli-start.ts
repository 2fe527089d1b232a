/**
 * What a `cascade` command costs before and while it does its work: the CPU time (user + system, from the
 * process's own start to its exit) of `--version`, `stats`, `show`, `list`, `add` and `search` on a small store,
 * each run several times in a fresh process; prints the minimum and the median of each. CPU time, not wall time,
 * because wall time on a shared machine measures the neighbours.
 *
 * `--against PATH` (another build's dist/src/surfaces/cli/main.js, say the main branch's) runs each command with
 * both, alternating run by run so that both meet the same neighbours, and prints both: a before/after comparison
 * that one run after another on a shared machine cannot give.
 *
 *   npx tsc -p tsconfig.json && node dist/bench/cli-start.js [--runs 7] [--against OTHER/dist/src/surfaces/cli/main.js]
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { numberFlag } from "./args.js";

const args = process.argv.slice(2);
const runs = numberFlag("--runs", 7);
const cli = new URL("../src/surfaces/cli/main.js", import.meta.url).pathname;
const against = args.includes("--against") ? args[args.indexOf("--against") + 1] : undefined;
const dir = mkdtempSync(join(tmpdir(), "cascade-cli-start-"));

// A module loaded before the CLI that writes the process's CPU time (which counts from the process's start, Node's
// own bootstrap included) to a file when it exits.
const probe = join(dir, "cpu-at-exit.mjs");
writeFileSync(
  probe,
  `import { writeFileSync } from "node:fs";
   process.on("exit", () => { const u = process.cpuUsage(); writeFileSync(process.env.CASCADE_CPU_OUT, String((u.user + u.system) / 1e6)); });`,
);
const cpuOut = join(dir, "cpu.txt");
const { CASCADE_CONFIG: _config, ...inherited } = process.env;
const env = { ...inherited, CASCADE_DB: join(dir, "memory.db"), CASCADE_CPU_OUT: cpuOut };

function cpuOf(command: string[], main = cli): number {
  execFileSync(process.execPath, ["--import", pathToFileURL(probe).href, main, ...command], { env, cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
  return Number(readFileSync(cpuOut, "utf8"));
}

// a small store: the demo's thirty memories, then one id to show
execFileSync(process.execPath, [cli, "--db", env.CASCADE_DB, "demo"], { env, cwd: dir, stdio: "ignore" });
const listed = JSON.parse(execFileSync(process.execPath, [cli, "list", "--json", "--limit", "1"], { env, cwd: dir, encoding: "utf8" })) as { memories: { id: string }[] };
const id = listed.memories[0].id;

const commands: [string, string[]][] = [
  ["--version", ["--version"]],
  ["stats", ["stats"]],
  ["show", ["show", id]],
  ["list", ["list", "--limit", "10"]],
  ["add", ["--now", "2026-06-01T00:00:00Z", "add", "The deploy freeze ends on Friday"]],
  ["search", ["--now", "2026-06-01T00:00:00Z", "search", "deploy freeze"]],
];

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

console.log(`CPU seconds (user + system) a command, ${runs} runs each, Node ${process.version}`);
console.log(against ? `command      min     median   | --against: min     median   (${against})` : "command      min     median");
try {
  for (const [name, command] of commands) {
    const times: number[] = [];
    const others: number[] = [];
    for (let r = 0; r < runs; r++) {
      times.push(cpuOf(command));
      if (against) others.push(cpuOf(command, against));
    }
    const other = against ? `   |            ${Math.min(...others).toFixed(3)}   ${median(others).toFixed(3)}` : "";
    console.log(`${name.padEnd(11)} ${Math.min(...times).toFixed(3)}   ${median(times).toFixed(3)}${other}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
