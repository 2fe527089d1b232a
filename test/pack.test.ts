import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { MCP_TOOLS } from "../src/surfaces/mcp/tools.js";
import { tempDir } from "./helpers.js";

const root = new URL("../..", import.meta.url).pathname;

/**
 * `npm install <tarball>` into an empty project, with an empty npm cache of its own and no network (--offline):
 * the tarball's declared `dependencies` are first linked into the project from this repository's node_modules
 * (what `npm ci` installed from the lockfile), so npm resolves them against what is there instead of fetching
 * them, and does the rest as for any user: unpacks the package, checks its dependencies are met, links its bin.
 * Only declared dependencies are linked, so a runtime import of a devDependency, or a file missing from `files`,
 * still fails here.
 */
function installPacked(tarball: string, app: string): string {
  const manifest = JSON.parse(execFileSync("tar", ["-xzOf", tarball, "package/package.json"], { encoding: "utf8" })) as { dependencies?: Record<string, string> };
  for (const name of Object.keys(manifest.dependencies ?? {})) {
    const source = join(root, "node_modules", name);
    assert.ok(existsSync(source), `dependency ${name} is not installed in the project (run npm ci)`);
    const target = join(app, "node_modules", name);
    mkdirSync(join(target, ".."), { recursive: true });
    symlinkSync(source, target, "dir");
  }
  const cache = tempDir();
  execFileSync("npm", ["install", tarball, "--offline", "--cache", cache, "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: app, stdio: "pipe" });
  // npm wrote the dependency into the project and linked the bin where `npx cascade` finds it
  assert.match((JSON.parse(readFileSync(join(app, "package.json"), "utf8")) as { dependencies: Record<string, string> }).dependencies["cascade-memory"], /\.tgz$/);
  const bin = join(app, "node_modules", ".bin", "cascade");
  assert.ok(existsSync(bin), "npm linked node_modules/.bin/cascade");
  return bin;
}

test("npm pack produces a package that npm installs into an empty project, whose CLI, SDK, adapters and MCP server run", async () => {
  const out = tempDir();
  // --ignore-scripts: the suite already built dist/; rebuilding here would rewrite files other tests are reading
  execFileSync("npm", ["pack", "--ignore-scripts", "--pack-destination", out], { cwd: root, stdio: "pipe" });
  const tarball = join(out, readdirSync(out).find((f) => f.endsWith(".tgz"))!);
  const app = tempDir();
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "empty-app", version: "1.0.0", type: "module", private: true }));
  const bin = installPacked(tarball, app);

  // Nothing of the project's own tree is reachable: the packed files are all the CLI and SDK have.
  assert.ok(!existsSync(join(app, "node_modules", "cascade-memory", "src")), "sources are not published");
  // the bin as npm linked it (its #! line finds node on the PATH)
  const env = { ...process.env, PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ""}` };
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };
  assert.equal(execFileSync(bin, ["--version"], { cwd: app, env, encoding: "utf8" }), `${pkg.version}\n`);
  const demo = JSON.parse(execFileSync(bin, ["demo", "--json"], { cwd: app, env, encoding: "utf8" }));
  assert.equal(demo.imported, 30);

  // the desktop-client configuration docs/INTEGRATIONS.md gives, with `cascade` being what this install put on the
  // PATH (node_modules/.bin here; a global install links the same file): the server starts and lists its tools
  const integrations = readFileSync(join(root, "docs", "INTEGRATIONS.md"), "utf8");
  const config = JSON.parse(/## MCP[\s\S]*?```json\n([\s\S]*?)```/.exec(integrations)![1]) as { mcpServers: { cascade: { command: string; args: string[] } } };
  const { command, args } = config.mcpServers.cascade;
  assert.equal(command, "cascade", "the documented command is the installed bin");
  const client = new Client({ name: "pack-test", version: "1.0.0" });
  const db = join(app, "memory.db");
  await client.connect(new StdioClientTransport({ command: bin, args: args.map((a) => (a.endsWith(".db") ? db : a)), cwd: app, env: env as Record<string, string>, stderr: "pipe" }));
  try {
    assert.deepEqual((await client.listTools()).tools.map((t) => t.name).sort(), Object.keys(MCP_TOOLS).sort());
  } finally {
    await client.close();
  }

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
