/**
 * Import rules (docs/DESIGN.md, "Layers"). `npm test` runs them (npm run lint:imports) on the TypeScript sources.
 * Lower layers never import higher ones; the surfaces speak only to the SDK's front door, src/index.ts.
 */
const CORE = "^src/(model|ports|errors|validate|text|time|vectors|fuse|topics|embed|providers|ingest|entities|graph|pyramid|channels|query|config)";
module.exports = {
  forbidden: [
    { name: "no-circular", severity: "error", comment: "Import circles make the load order matter and the layers meaningless.", from: { path: "^src" }, to: { circular: true } },
    {
      name: "core-stays-below",
      severity: "error",
      comment: "The engine core picks no backend and knows no shell: it imports ports, never backends, api, eval, bench or surfaces.",
      from: { path: CORE },
      to: { path: "^src/(backends|api|surfaces|eval|bench|demo|adapters)/|^src/(index|light)\\.ts$" },
    },
    {
      name: "model-and-ports-are-the-bottom",
      severity: "error",
      comment: "Types and ports describe the engine's words; they import only each other (and errors).",
      from: { path: "^src/(model|ports)/" },
      to: { path: "^src/", pathNot: "^src/(model|ports)/|^src/errors\\.ts$|^src/time/windows\\.ts$|^src/text/terms\\.ts$" },
    },
    {
      name: "query-is-above-the-floors-it-reads",
      severity: "error",
      comment: "The query pipeline reads the layers below it (channels, graph, backends through ports); they never reach up into it: what both need (how a memory meets a filter) lives in model/.",
      from: { path: "^src/(backends|channels|graph|model|ports|text|time|vectors|entities|topics|embed|pyramid|ingest|fuse|providers)/" },
      to: { path: "^src/query/" },
    },
    {
      name: "backends-implement-ports",
      severity: "error",
      comment: "A backend implements the store port; it does not reach into the engine's wiring or its shells.",
      from: { path: "^src/backends/" },
      to: { path: "^src/(api|surfaces|eval|bench|demo|channels)/|^src/(index|light)\\.ts$" },
    },
    {
      name: "api-knows-no-shell",
      severity: "error",
      comment: "The SDK does not depend on the CLI, HTTP, MCP, the web page or a framework adapter.",
      from: { path: "^src/(api|eval|bench)/|^src/(index|light)\\.ts$" },
      to: { path: "^src/(surfaces|adapters)/" },
    },
    {
      name: "adapters-use-the-sdk",
      severity: "error",
      comment: "A framework adapter (cascade-memory/langchain, /ai-sdk, /openai-agents) wraps the public SDK in a framework's types; the SDK never imports one, so the core needs no framework.",
      from: { path: "^src/adapters/" },
      to: { path: "^src/", pathNot: "^src/adapters/|^src/index\\.ts$" },
    },
    {
      name: "frameworks-only-in-adapters",
      severity: "error",
      comment: "Agent frameworks are optional peer dependencies: only their adapter may import one, or installing Cascade would need them all.",
      from: { path: "^src/", pathNot: "^src/adapters/" },
      to: { path: "(^|/)node_modules/(ai|@ai-sdk|@langchain|@openai/agents[^/]*)/" },
    },
    {
      name: "surfaces-use-the-sdk",
      severity: "error",
      comment: "CLI, HTTP, MCP and the web page are thin shells over one SDK: they import its doors, src/index.ts and (for commands that only read a store) src/light.ts, a subset of it, not its insides.",
      from: { path: "^src/surfaces/" },
      to: { path: "^src/", pathNot: "^src/surfaces/|^src/(index|light)\\.ts$" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    exclude: { path: "^src/surfaces/web/client" },
  },
};
