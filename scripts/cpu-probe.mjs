/**
 * Preloaded into every Node process of a run (NODE_OPTIONS=--import=<this file's absolute path>) to say where a
 * run's CPU goes: at exit, each process appends a line to $CASCADE_PROBE_LOG with its own CPU time (user + system,
 * from its start: Node's bootstrap included, its children not), what it ran, and its parent, so that
 * scripts/cpu-probe-report.mjs can sum the time by kind of process and by test file. It writes nothing else and
 * changes nothing in the process; a process killed by a signal leaves no line.
 *
 *   CASCADE_PROBE_LOG=/tmp/probe.log NODE_OPTIONS=--import=$PWD/scripts/cpu-probe.mjs npm test
 *   node scripts/cpu-probe-report.mjs /tmp/probe.log
 */
import { appendFileSync } from "node:fs";
import { isMainThread } from "node:worker_threads";

const log = process.env.CASCADE_PROBE_LOG;
// a worker thread (the doctor's, the write thread's) loads this too, but its process.cpuUsage() is its whole
// process's: only the main thread writes a line
if (log && isMainThread) {
  process.on("exit", () => {
    const u = process.cpuUsage();
    const line = { cpu: (u.user + u.system) / 1e6, argv: process.argv.slice(1, 9), pid: process.pid, ppid: process.ppid };
    try {
      appendFileSync(log, `${JSON.stringify(line)}\n`);
    } catch {
      // a test that removed the folder, or a full disk: the run matters more than its line
    }
  });
}
