/**
 * A summary written before the latest memories of its window is marked `stale` in a search's answer, and every
 * surface passes that on: the CLI's text and MCP's text say it in words (STALE_SUMMARY_NOTE), the CLI's --json and
 * HTTP's JSON carry `"stale": true` (the SDK's own answer: search-during-refresh.test.ts).
 *
 * The state is made the way it arises in a CLI or server process: windows written to since their summaries were
 * computed (here by a process with the pyramid off), and an open whose catch-up cannot rewrite them because another
 * connection holds the store's write lock longer than the busy timeout (the open then goes on for reads,
 * api/open.ts). Each surface runs as its own process (the busy timeout is read when a process starts).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import Database from "better-sqlite3";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { openMemory, parseInstant, STALE_SUMMARY_NOTE } from "../src/index.js";
import { spawnServer } from "../bench/spawn-server.js";
import { cli, tempDir } from "./helpers.js";

const CLI = new URL("../src/surfaces/cli/main.js", import.meta.url).pathname;
const NOW = "2026-06-20T12:00:00Z";
const DAY_NODE = "p_day_2026-06-16";
const QUESTION = "What happened with the Lisbon trip on June 16?";
const SHORT_LOCK = { CASCADE_BUSY_TIMEOUT_MS: "200" };

/** Holds the store's write lock (as a writer in another process would) while `fn` runs. */
async function whileLocked<T>(db: string, fn: () => Promise<T> | T): Promise<T> {
  const holder = new Database(db);
  holder.exec("BEGIN IMMEDIATE");
  try {
    return await fn();
  } finally {
    holder.exec("ROLLBACK");
    holder.close();
  }
}

describe("every surface says when a summary is stale", () => {
  const dir = tempDir();
  const db = join(dir, "stale.db");

  before(async () => {
    const now = parseInstant("now", NOW);
    const settled = await openMemory({ path: db, now });
    await settled.remember({ text: "Priya booked the Lisbon trip for the design offsite in July.", at: "2026-06-16T09:00:00Z" });
    await settled.remember({ text: "Marcus Okafor moved the quarterly review to Thursday.", at: "2026-06-16T10:00:00Z" });
    await settled.close();
    // a write by a process with the pyramid off: the day's window is dirty, its summary the one computed before
    const unrefreshed = await openMemory({ path: db, now, pyramid: { enabled: false } });
    await unrefreshed.remember({ text: "Priya moved the Lisbon trip to Friday because the venue was double-booked.", at: "2026-06-16T15:00:00Z" });
    await unrefreshed.close();
  });

  test("the CLI's text says it under each stale summary hit and beside each stale context summary; --json has stale: true", async () => {
    const text = await whileLocked(db, () => cli(["--db", db, "--now", NOW, "search", QUESTION, "--kind", "summary"], { env: SHORT_LOCK }));
    assert.equal(text.status, 0, text.stderr);
    const day = text.stdout.split(/\n(?= ?\d+\. )/).find((h) => h.includes(DAY_NODE));
    assert.ok(day, text.stdout);
    assert.ok(day.includes(`\n    ${STALE_SUMMARY_NOTE}\n`), day);

    const withContext = await whileLocked(db, () => cli(["--db", db, "--now", NOW, "search", QUESTION], { env: SHORT_LOCK }));
    assert.equal(withContext.status, 0, withContext.stderr);
    assert.match(withContext.stdout, new RegExp(`\\n  day 2026-06-16\\.\\.2026-06-17  ${DAY_NODE}  \\(${STALE_SUMMARY_NOTE}\\)\\n`));
    // a memory is never stale: no hit line of a memory carries the note
    const hits = withContext.stdout.split("\ncontext")[0];
    assert.ok(!hits.includes(STALE_SUMMARY_NOTE), hits);

    const json = await whileLocked(db, () => cli(["--db", db, "--now", NOW, "search", QUESTION, "--kind", "summary", "--json"], { env: SHORT_LOCK }));
    assert.equal(json.status, 0, json.stderr);
    assert.equal(json.json.hits.find((h: { id: string }) => h.id === DAY_NODE)?.stale, true);
  });

  test("MCP's memory_search text says it in the stale summary's hit and in its context line", async () => {
    const client = new Client({ name: "cascade-test", version: "1.0.0" });
    try {
      const text = await whileLocked(db, async () => {
        const env = { ...(process.env as Record<string, string>), ...SHORT_LOCK };
        await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp", "--db", db, "--now", NOW], env, stderr: "pipe" }));
        const r = (await client.callTool({ name: "memory_search", arguments: { query: QUESTION, kinds: ["summary"] } })) as { content: { text: string }[] };
        return r.content.map((c) => c.text).join("\n");
      });
      const day = text.split(/\n\n(?=\d+\. )/).find((h) => h.includes(`[${DAY_NODE}]`));
      assert.ok(day, text);
      assert.ok(day.split("\n")[0].includes(`; ${STALE_SUMMARY_NOTE};`), day);
      const mixed = (await client.callTool({ name: "memory_search", arguments: { query: QUESTION } })) as { content: { text: string }[] };
      const mixedText = mixed.content.map((c) => c.text).join("\n");
      assert.ok(mixedText.includes(`- [${DAY_NODE}] day summary of 2026-06-16T00:00:00Z to 2026-06-17T00:00:00Z (${STALE_SUMMARY_NOTE}):`), mixedText);
      // the memories themselves carry no note
      for (const hit of mixedText.split("\n\nContext")[0].split(/\n\n(?=\d+\. )/)) assert.ok(!hit.includes(STALE_SUMMARY_NOTE), hit);
    } finally {
      await client.close();
    }
  });

  test("HTTP's search answer has stale: true on the stale summary", async () => {
    const server = await whileLocked(db, async () => {
      const { child, url } = await spawnServer(db, 1, { args: ["--now", NOW], env: SHORT_LOCK });
      // the store opens with the first request: it too meets the lock
      const res = await fetch(`${url}/v1/search`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: QUESTION, kinds: ["summary"] }) });
      return { child, status: res.status, body: (await res.json()) as { hits: { id: string; stale?: true }[] } };
    });
    try {
      assert.equal(server.status, 200, JSON.stringify(server.body));
      assert.equal(server.body.hits.find((h) => h.id === DAY_NODE)?.stale, true, JSON.stringify(server.body.hits.map((h) => h.id)));
    } finally {
      server.child.kill("SIGTERM");
    }
  });

  after(async () => {
    // once the lock is gone, an open catches up: the same search says nothing of staleness
    const r = cli(["--db", db, "--now", NOW, "search", QUESTION]);
    assert.equal(r.status, 0, r.stderr);
    assert.ok(!r.stdout.includes(STALE_SUMMARY_NOTE), r.stdout);
  });
});
