/**
 * `cascade serve --workers 2`: two processes share the port and the store; both answer, what one writes the
 * other finds, SIGTERM stops them all, and workers whose primary was killed stop on their own.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { cli, serve, tempDir } from "./helpers.js";

const start = (db: string) => serve(["--db", db], ["--workers", "2"]);

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(check: () => boolean, ms: number): Promise<boolean> {
  for (const t0 = Date.now(); Date.now() - t0 < ms; await new Promise((r) => setTimeout(r, 50))) if (check()) return true;
  return check();
}

test("two workers share the load and the store; SIGTERM stops every process", async (t) => {
  const db = join(tempDir(), "w.db");
  assert.equal(cli(["--db", db, "add", "The billing service moved to DynamoDB", "--at", "2026-01-01"]).status, 0);
  const { child, url, log } = await start(db);
  // a failed assertion must not leave the server running (its processes would keep the test file alive)
  t.after(() => void (child.exitCode === null && child.signalCode === null && child.kill("SIGKILL")));
  // each worker says when it listens; one still starting (a loaded machine) takes no connections, and the
  // connections the first one got would be kept alive and reused by every later round
  assert.ok(await until(() => log().match(/serving http/g)?.length === 2, 30_000), `both workers listen: ${log()}`);
  const search = (query: string) => fetch(`${url}/v1/search`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query }) });
  const workers = new Set<string>();
  for (let round = 0; round < 5 && workers.size < 2; round++) {
    const answers = await Promise.all(Array.from({ length: 16 }, () => search("billing DynamoDB")));
    for (const r of answers) {
      assert.equal(r.status, 200);
      workers.add(r.headers.get("x-cascade-worker")!);
    }
  }
  assert.equal(workers.size, 2, "both workers answered");
  const added = await fetch(`${url}/v1/memories`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ text: "The deploy pipeline uses canary releases now" }) });
  assert.equal(added.status, 201);
  const seen = await Promise.all(Array.from({ length: 8 }, async () => ((await (await search("canary releases")).json()) as any).hits[0]?.text));
  assert.ok(seen.every((t) => /canary/.test(t)), "what one worker wrote, every worker finds");
  child.kill("SIGTERM");
  const code = await new Promise((r) => child.once("exit", r));
  assert.equal(code, 0);
  const pids = [...workers].map(Number);
  assert.ok(await until(() => pids.every((p) => !alive(p)), 5000), "no worker outlives the primary's SIGTERM");
});

test("workers whose primary was killed (SIGKILL) stop on their own", async () => {
  const { child, url } = await start(join(tempDir(), "k.db"));
  const pids = new Set<number>();
  for (let i = 0; i < 30 && pids.size < 2; i++) pids.add(Number((await fetch(`${url}/health`)).headers.get("x-cascade-worker")));
  child.kill("SIGKILL");
  assert.ok(await until(() => [...pids].every((p) => !alive(p)), 8000), `workers ${[...pids].join(", ")} stopped`);
});
