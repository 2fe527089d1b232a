import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { tempDir } from "./helpers.js";

const root = new URL("../..", import.meta.url).pathname;

/**
 * Installs the packed tarball the way npm would lay it out, without npm's resolver: the tarball is unpacked into
 * node_modules/cascade-memory and each of its declared `dependencies` is linked from the project's own
 * node_modules (which `npm ci` filled from the lockfile). An offline `npm install` cannot do this on a new machine:
 * `npm ci` stores tarballs in the cache but not the package metadata that resolving ranges needs (issue 11).
 * Only declared dependencies are linked, so a runtime import of a devDependency, or a file missing from `files`,
 * still fails here.
 */
function installPacked(tarball: string, app: string): string {
  const pkgDir = join(app, "node_modules", "cascade-memory");
  mkdirSync(pkgDir, { recursive: true });
  execFileSync("tar", ["-xzf", tarball, "-C", pkgDir, "--strip-components=1"], { stdio: "pipe" });
  const manifest = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8")) as { dependencies?: Record<string, string>; bin: Record<string, string> };
  for (const name of Object.keys(manifest.dependencies ?? {})) {
    const source = join(root, "node_modules", name);
    assert.ok(existsSync(source), `dependency ${name} is not installed in the project (run npm ci)`);
    const target = join(app, "node_modules", name);
    mkdirSync(join(target, ".."), { recursive: true });
    symlinkSync(source, target, "dir");
  }
  return join(pkgDir, manifest.bin.cascade);
}

test("npm pack produces a package that installs and runs in an empty folder", () => {
  const out = tempDir();
  // --ignore-scripts: the suite already built dist/; rebuilding here would rewrite files other tests are reading
  execFileSync("npm", ["pack", "--ignore-scripts", "--pack-destination", out], { cwd: root, stdio: "pipe" });
  const tarball = join(out, readdirSync(out).find((f) => f.endsWith(".tgz"))!);
  const app = tempDir();
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "empty-app", version: "1.0.0", type: "module", private: true }));
  const bin = installPacked(tarball, app);

  // Nothing of the project's own tree is reachable: the packed files are all the CLI and SDK have.
  assert.ok(!existsSync(join(app, "node_modules", "cascade-memory", "src")), "sources are not published");
  const demo = JSON.parse(execFileSync(process.execPath, [bin, "demo", "--json"], { cwd: app, encoding: "utf8" }));
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

  // the framework adapters are subpath exports: a user who installed a framework (an optional peer) imports its
  // adapter by name; the core above ran with none of them installed
  const manifest = JSON.parse(readFileSync(join(app, "node_modules", "cascade-memory", "package.json"), "utf8")) as { peerDependencies: Record<string, string> };
  assert.deepEqual(Object.keys(manifest.peerDependencies).sort(), ["@langchain/core", "@openai/agents", "ai"]);
  for (const name of Object.keys(manifest.peerDependencies)) {
    mkdirSync(join(app, "node_modules", name, ".."), { recursive: true });
    symlinkSync(join(root, "node_modules", name), join(app, "node_modules", name), "dir");
  }
  writeFileSync(
    join(app, "adapters.mjs"),
    `import { CascadeRetriever, CascadeChatMessageHistory } from "cascade-memory/langchain";
     import { cascadeTools as aiTools } from "cascade-memory/ai-sdk";
     import { cascadeTools as agentTools } from "cascade-memory/openai-agents";
     import { openMemory } from "cascade-memory";
     const m = await openMemory({ path: ":memory:" });
     console.log(JSON.stringify({ ai: Object.keys(aiTools(m)), agents: agentTools(m).map((t) => t.name), langchain: [typeof CascadeRetriever, typeof CascadeChatMessageHistory] }));
     await m.close();`,
  );
  const tools = ["memory_search", "memory_add", "memory_forget", "memory_history"];
  assert.deepEqual(JSON.parse(execFileSync(process.execPath, ["adapters.mjs"], { cwd: app, encoding: "utf8" })), { ai: tools, agents: tools, langchain: ["function", "function"] });

  // the web inspector's scripts travel in the package (dist/src), so `cascade serve` can serve them offline
  const packed = execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" });
  for (const file of ["main.js", "api.js", "search.js", "timeline.js"]) assert.match(packed, new RegExp(`package/dist/src/surfaces/web/client/${file}`));
});
