/**
 * An MCP message longer than the SDK's 10 MB read buffer: the SDK closed its transport and
 * `cascade mcp` ended with exit 0, answering nothing more. The line is now skipped as it streams, answered with
 * a JSON-RPC error (id null), and the next message is served.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { test } from "node:test";
import { tempDir } from "./helpers.js";

const CLI = new URL("../src/surfaces/cli/main.js", import.meta.url).pathname;

test("a 12 MB line is refused with an error and the server answers the next message", async () => {
  const child = spawn(process.execPath, [CLI, "--db", join(tempDir(), "memory.db"), "mcp"], { stdio: ["pipe", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const answers = () => out.split("\n").filter(Boolean).map((l) => JSON.parse(l));
  const answered = (id: number) =>
    new Promise<boolean>((resolve) => {
      const timer = setInterval(() => answers().some((a) => a.id === id) && (clearInterval(timer), resolve(true)), 20);
      void exited.then(() => (clearInterval(timer), resolve(answers().some((a) => a.id === id))));
    });
  const pad = "a".repeat(12 * 1024 * 1024);
  child.stdin!.write(`{"jsonrpc":"2.0","id":7,"method":"ping","params":{"pad":"${pad}"}}\n`);
  child.stdin!.write(`{"jsonrpc":"2.0","id":1,"method":"ping"}\n`);
  assert.equal(await answered(1), true, `the server still answers (stderr: ${err.slice(0, 300)})`);
  const refusal = answers().find((a) => a.id === null);
  assert.equal(refusal?.error.code, -32600);
  assert.match(refusal.error.message, /more than the 8388608 allowed/);
  assert.equal(answers().some((a) => a.id === 7), false, "the long message was not served");
  child.stdin!.end();
  assert.equal(await exited, 0);
});
