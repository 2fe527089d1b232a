/**
 * Starts `cascade serve --port 0` in a child process and resolves with its URL, read from the line it prints
 * on stderr (`more`: further flags, and variables over the process's environment). Shared by the HTTP load
 * benchmark and the server tests.
 */
import { spawn, type ChildProcess } from "node:child_process";

const CLI = new URL("../src/surfaces/cli/main.js", import.meta.url).pathname;

export async function spawnServer(db: string, workers = 1, more: { args?: string[]; env?: NodeJS.ProcessEnv } = {}): Promise<{ child: ChildProcess; url: string }> {
  const args = [CLI, "serve", "--port", "0", "--db", db, "--workers", String(workers), ...(more.args ?? [])];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, ...more.env } });
  const url = await new Promise<string>((resolve, reject) => {
    let err = "";
    child.stderr!.on("data", (d) => {
      err += d;
      const m = /serving (http:\/\/\S+)/.exec(err);
      if (m) resolve(m[1]);
    });
    child.once("exit", () => reject(new Error(`cascade serve exited: ${err}`)));
  });
  return { child, url };
}
