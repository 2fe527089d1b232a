import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { openMemory } from "../src/index.js";
import { cli, cliHere, serve, tempDir } from "./helpers.js";

const CLI = new URL("../src/surfaces/cli/main.js", import.meta.url).pathname;
const NOW = ["--now", "2026-06-20T09:00:00Z"];

/** `cascade ARGS` as a child that runs while this process goes on (spawnSync would stop the writers). */
function cliAsync(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args]);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("exit", (status) => resolve({ status, stdout, stderr }));
  });
}

describe("cascade backup", () => {
  test("a copy taken while a server writes holds every acknowledged write, passes doctor and searches", async () => {
    const dir = tempDir();
    const db = join(dir, "live.db");
    const copy = join(dir, "backup", "copy.db");
    const server = await serve(["--db", db, ...NOW]);
    const post = async (path: string, body: unknown, namespace?: string) => {
      const res = await fetch(server.url + path, { method: "POST", headers: { "content-type": "application/json", ...(namespace ? { "x-cascade-namespace": namespace } : {}) }, body: JSON.stringify(body) });
      return { status: res.status, json: (await res.json()) as any };
    };
    try {
      // a correction with its edge, so the copy has history to show
      const old = await post("/v1/memories", { text: "The billing service stores invoices in MySQL.", at: "2026-03-01" });
      const fresh = await post("/v1/memories", { text: "The billing service stores invoices in PostgreSQL now.", at: "2026-05-01" });
      assert.equal((await post("/v1/supersede", { new: fresh.json.id, old: old.json.id, reason: "moved" })).status, 201);

      // writers that never pause: two on the default namespace, one on another
      const acked: { id: string; namespace: string; at: number }[] = [];
      const failed: number[] = [];
      let stop = false;
      let seq = 0;
      const writer = async (namespace?: string) => {
        while (!stop) {
          const n = seq++;
          const r = await post("/v1/memories", { text: `Deploy note ${n}: the release train left platform ${n % 7} on time.` }, namespace);
          if (r.status === 201) acked.push({ id: r.json.id, namespace: namespace ?? "default", at: performance.now() });
          else failed.push(r.status);
        }
      };
      const writers = [writer(), writer(), writer("team")];
      while (acked.filter((a) => a.namespace === "team").length < 5 || acked.length < 30) await new Promise((r) => setTimeout(r, 10));

      const began = performance.now();
      const before = acked.filter((a) => a.at <= began);
      const backup = await cliAsync(["--db", db, "backup", copy, "--json"]);
      const ended = performance.now();
      stop = true;
      await Promise.all(writers);
      assert.equal(backup.status, 0, backup.stderr);
      assert.deepEqual(failed, [], "no write failed while the backup ran");
      const during = acked.filter((a) => a.at > began && a.at < ended).length;
      assert.ok(during > 0, "the writers went on while the backup ran");
      const report = JSON.parse(backup.stdout);
      assert.deepEqual(report.namespaces.map((n: any) => n.namespace), ["default", "team"]);
      assert.ok(!existsSync(`${copy}.hnsw`), "the vector graph is rebuilt by the copy, not copied");

      for (const namespace of ["default", "team"]) {
        const e = await openMemory({ path: copy, namespace, create: false, now: Date.parse("2026-06-20T09:00:00Z") });
        try {
          const doctor = await e.doctor();
          assert.ok(doctor.ok, JSON.stringify(doctor.checks.filter((c) => !c.ok)));
          const expected = before.filter((a) => a.namespace === namespace);
          for (const a of expected) assert.equal((await e.show(a.id)).id, a.id, `${a.id} was acknowledged before the backup began`);
          assert.ok((await e.stats()).memories >= expected.length);
          const hits = (await e.recall("release train platform", { k: 3 })).hits;
          assert.equal(hits.length, 3);
          if (namespace === "default") {
            const history = await e.history(old.json.id);
            assert.deepEqual(history.chain.map((m: any) => m.id), [old.json.id, fresh.json.id]);
            assert.equal((await e.recall("where are invoices stored", { k: 1, channels: ["bm25", "dense"] })).hits[0].id, fresh.json.id);
          }
        } finally {
          await e.close();
        }
      }
    } finally {
      server.child.kill("SIGTERM");
      await new Promise((r) => server.child.once("exit", r));
    }
  });

  test("mistakes are one line and exit 2, and change nothing", async () => {
    const dir = tempDir();
    const db = join(dir, "s.db");
    assert.equal((await cliHere(["--db", db, ...NOW, "add", "A note to back up."])).status, 0);
    const taken = join(dir, "taken.db");
    writeFileSync(taken, "keep me");
    const over = cli(["--db", db, "backup", taken]);
    assert.equal(over.status, 2);
    assert.match(over.stderr, /path: .*taken\.db already exists; back up to a new path/);
    assert.equal(over.stderr.trim().split("\n").length, 1);
    assert.equal(readFileSync(taken, "utf8"), "keep me");
    const none = await cliHere(["--db", join(dir, "missing.db"), "backup", join(dir, "b.db")]);
    assert.notEqual(none.status, 0);
    assert.match(none.stderr, /no store at .*missing\.db/);
    assert.ok(!existsSync(join(dir, "b.db")) && !existsSync(join(dir, "missing.db")));
    const pg = await cliHere(["--db", "postgres://127.0.0.1:1/x", "backup", join(dir, "c.db")]);
    assert.notEqual(pg.status, 0);
    assert.match(pg.stderr, /pg_dump/);
  });
});
