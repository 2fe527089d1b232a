import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { tempDir } from "./helpers.js";

const root = new URL("../..", import.meta.url).pathname;

test("npm pack produces a package that installs and runs in an empty folder", () => {
  const out = tempDir();
  // --ignore-scripts: the suite already built dist/; rebuilding here would rewrite files other tests are reading
  execFileSync("npm", ["pack", "--ignore-scripts", "--pack-destination", out], { cwd: root, stdio: "pipe" });
  const tarball = join(out, readdirSync(out).find((f) => f.endsWith(".tgz"))!);
  const app = tempDir();
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "empty-app", version: "1.0.0", type: "module", private: true }));
  // --offline: every dependency comes from the npm cache that `npm ci` filled; the test needs no network
  execFileSync("npm", ["install", "--offline", "--no-audit", "--no-fund", tarball], { cwd: app, stdio: "pipe" });

  const demo = JSON.parse(execFileSync(join(app, "node_modules", ".bin", "cascade"), ["demo", "--json"], { cwd: app, encoding: "utf8" }));
  assert.equal(demo.imported, 30);

  writeFileSync(
    join(app, "agent.mjs"),
    `import { openMemory, CascadeError } from "cascade-memory";
     const m = await openMemory({ path: ":memory:" });
     const { id } = await m.remember({ text: "Installed from the packed tarball" });
     const r = await m.recall("packed tarball");
     console.log(JSON.stringify({ same: r.hits[0].id === id, error: typeof CascadeError }));
     await m.close();`,
  );
  assert.deepEqual(JSON.parse(execFileSync(process.execPath, ["agent.mjs"], { cwd: app, encoding: "utf8" })), { same: true, error: "function" });
});
