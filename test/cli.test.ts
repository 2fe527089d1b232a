import assert from "node:assert/strict";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { CHANNEL_NAMES, demoCorpus, openMemory, parseInstant } from "../src/index.js";
import { cli, cliAll, cliHere, tempDir } from "./helpers.js";

const NOW = "2026-06-20T09:00:00Z";

describe("cascade CLI", () => {
  const db = join(tempDir(), "cli.db");
  // a CLI process where the test's subject is one (the first add, the refused forget's exit code, one search's usage
  // error); the rest run in this process (helpers cliHere: the same output and exit code)
  const proc = (...args: string[]) => cli([...args, "--db", db, "--now", NOW]);
  const run = (...args: string[]) => cliHere([...args, "--db", db, "--now", NOW]);
  /** A memory the test needs beside the one it adds with the CLI, written in this process (no CLI process of its own). */
  const beside = async (text: string, speaker?: string) => {
    const engine = await openMemory({ path: db, now: parseInstant("now", NOW) });
    try {
      await engine.remember({ text, speaker });
    } finally {
      await engine.close();
    }
  };

  test("add → search → show → forget, with --json", async () => {
    const added = proc("add", "The worker crashed with ECONNRESET during failover", "--title", "Failover crash", "--tags", "incident,postgres", "--topic", "ops.incidents", "--at", "2026-02-12T08:55:00Z", "--json");
    assert.equal(added.status, 0, added.stderr);
    assert.match(added.json.id, /^m_[0-9A-Z]{26}$/);
    assert.deepEqual({ ...added.json, id: undefined }, { id: undefined, kind: "note", topic: "ops.incidents", at: "2026-02-12T08:55:00Z", edges: [], suggestions: [] });

    await beside("Lunch on Friday is pizza", "Lena");
    const found = await run("search", "ECONNRESET", "-k", "5", "--json");
    assert.equal(found.status, 0, found.stderr);
    assert.equal(found.stderr, "");
    const r = found.json;
    assert.equal(r.query, "ECONNRESET");
    assert.equal(r.k, 5);
    assert.equal(r.rrf_k, 60);
    assert.equal(r.hits[0].id, added.json.id);
    assert.ok(r.hits[0].sources_hit.includes("bm25"));
    assert.deepEqual(Object.keys(r.hits[0]).sort(), ["adjustments", "agent", "at", "chunk", "contradicts", "id", "kind", "level", "ref", "revised", "rrf", "ranks", "score", "sources_hit", "speaker", "status", "superseded_by", "supersedes", "text", "title", "topic", "user", "window"].sort());
    assert.equal(r.hits[0].status, "current");
    assert.deepEqual(Object.keys(r.channels).sort(), ["bm25", "colbert", "curated", "dense", "graph", "recency", "time"]);
    assert.equal(r.channels.curated.weight, 0.8);
    assert.equal(typeof r.took_ms, "number");

    const shown = await run("show", added.json.id, "--json");
    assert.equal(shown.json.title, "Failover crash");
    assert.deepEqual(shown.json.tags, ["incident", "postgres"]);
    const human = await run("show", added.json.id);
    assert.match(human.stdout, /title\s+Failover crash/);

    const forgot = await run("forget", added.json.id, "--json");
    // the pyramid kept its day, week and month: they quoted it, and are rebuilt (here: emptied) before forget returns
    assert.deepEqual(forgot.json, { id: added.json.id, forgotten: true, summaries_rebuilt: 3 });
    const again = proc("forget", added.json.id, "--json");
    assert.equal(again.status, 2);
    assert.deepEqual(again.json.error.code, "NOT_FOUND");
    assert.equal(again.stderr.trim().split("\n").length, 1);
  });

  test("search flags: channels, weights, rrf-k", async () => {
    await beside("Kubernetes upgrade planned for the weekend");
    const r = (await run("search", "kubernetes upgrade", "--channels", "bm25,dense", "--weight", "bm25=2", "--rrf-k", "10", "--json")).json;
    assert.deepEqual(Object.keys(r.channels).sort(), ["bm25", "dense"]);
    assert.equal(r.channels.bm25.weight, 2);
    assert.equal(r.rrf_k, 10);
    const h = r.hits[0];
    assert.ok(Math.abs(h.rrf - (2 / (10 + h.ranks.bm25) + 1 / (10 + h.ranks.dense))) < 1e-12);
  });

  test("usage errors: one line on stderr, exit code 2, JSON error with --json", async () => {
    const cases: [string[], RegExp][] = [
      [["search", "x", "--bogus"], /unknown option '--bogus'/],
      [["search", "x", "-k", "zero"], /-k must be an integer/],
      [["search", "x", "--weight", "bm25"], /--weight takes NAME=W/],
      [["search", "x", "--weight", "nope=1"], /unknown channel "nope"/],
      [["search", "x", "--channels", "bm25,nope"], /channels\.1: a channel is one of/],
      [["search", "x", "--since", "yesterday"], /since: "yesterday" is not an ISO 8601/],
      [["add", ""], /text: cannot be empty/],
      [["add", "x", "--at", "2026-13-01"], /at: .*not a real calendar date/],
      [["add", "x", "--topic", "a..b"], /topic: label 2/],
      [["show", "m_missing"], /no memory with id "m_missing"/],
      [["add", "x", "--now", "soon"], /--now: "soon" is not an ISO 8601/],
      [["frobnicate"], /unknown command 'frobnicate'/],
    ];
    // the first case's two runs are CLI processes, the others run in this process (the same output and exit code):
    // none of them writes
    const runs = cases.flatMap(([args]) => [[...args, "--db", db], [...args, "--db", db, "--json"]]);
    const results = [...(await cliAll(runs.slice(0, 2))), ...(await Promise.all(runs.slice(2).map((args) => cliHere(args))))];
    for (const [i, [args, message]] of cases.entries()) {
      const [plain, json] = results.slice(2 * i, 2 * i + 2);
      assert.equal(plain.status, 2, `${args.join(" ")}: ${plain.stderr}`);
      const lines = plain.stderr.trim().split("\n");
      assert.equal(lines.length, 1, plain.stderr);
      assert.match(lines[0], message);
      assert.equal(plain.stdout, "");
      assert.equal(json.status, 2);
      assert.ok(json.json?.error?.code, json.stdout);
      assert.match(json.json.error.message, message);
    }
  });

  test("import JSONL: good lines kept, bad lines reported by number", async () => {
    const dir = tempDir();
    const file = join(dir, "in.jsonl");
    writeFileSync(
      file,
      [
        JSON.stringify({ text: "Deploy freeze starts on Monday", tags: ["ops"], ref: "a1" }),
        "{ not json",
        JSON.stringify({ text: "" }),
        "",
        JSON.stringify({ text: "Canary release looked healthy", at: "2026-05-02", speaker: "Marco" }),
        JSON.stringify(["an", "array"]),
        JSON.stringify({ text: "Bad date here", at: "May 2nd" }),
      ].join("\n"),
    );
    const importDb = join(dir, "import.db");
    const r = cli(["import", file, "--db", importDb, "--json"]);
    assert.equal(r.status, 1, "some lines failed: exit 1");
    assert.equal(r.json.imported, 2);
    assert.deepEqual(r.json.failed.map((f: { line: number }) => f.line), [2, 3, 6, 7]);
    assert.match(r.json.failed[0].error, /not valid JSON/);
    assert.match(r.json.failed[1].error, /text: cannot be empty/);
    assert.match(r.json.failed[3].error, /at: /);
    // again: what was stored is skipped, the same lines fail (exit 1); a file where every line fails is exit 2
    const again = await cliHere(["import", file, "--db", importDb]);
    assert.equal(again.status, 1);
    assert.match(again.stdout, /^imported 0, skipped 2 already stored, failed 4\n/);
    const allBad = join(dir, "bad.jsonl");
    writeFileSync(allBad, ["{ not json", JSON.stringify({ txt: "typo" })].join("\n"));
    const none = await cliHere(["import", allBad, "--db", importDb]);
    assert.equal(none.status, 2, "every line failed: exit 2");
    assert.match(none.stdout, /^imported 0, skipped 0 already stored, failed 2\n/);
    const good = join(dir, "good.jsonl");
    writeFileSync(good, JSON.stringify({ text: "Rollback plan approved" }));
    assert.equal((await cliHere(["import", good, "--db", importDb])).status, 0, "every line stored: exit 0");
    // what the imports stored, read in this process (search and show --json are the SDK's answers, printed)
    const engine = await openMemory({ path: importDb });
    try {
      assert.equal((await engine.recall("canary")).hits[0].speaker, "Marco");
      const shown = (await engine.recall("deploy freeze")).hits[0];
      assert.equal((await engine.show(shown.id)).metadata?.ref, "a1");
    } finally {
      await engine.close();
    }
  });

  test("demo runs on a temporary store and shows fused hits with their channels", async () => {
    const [r, j] = [cli(["demo"]), await cliHere(["demo", "--json"])];
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /Loaded 30 memories/);
    assert.match(r.stdout, /\[bm25#\d+ dense#\d+/);
    // a person reads rounded factors (×1.25), never a raw float (×1.2493319063221888)
    assert.match(r.stdout, /adjusted: .* ×\d\.\d{1,2}\b/);
    assert.doesNotMatch(r.stdout, /\d\.\d{5,}/);
    assert.equal(j.json.imported, 30);
    assert.equal(j.json.queries.length, 5);
    assert.match(j.json.queries[2].result.hits[0].text, /dog ate my headphones/);
  });
});

test("the config file switches engine features (here: revision detection) and is validated", async () => {
  const dir = tempDir();
  const db = join(dir, "cfg.db");
  const off = join(dir, "off.json");
  writeFileSync(off, JSON.stringify({ engine: { detection: { enabled: false } }, search: { k: 3 } }));
  const run = async (...args: string[]) => (await cliHere([...args, "--db", db, "--now", NOW, "--json"])).json;
  // the edges each add drew, read in this process (`history --json` prints engine.history's answer as it is)
  const edges = async (id: string) => {
    const engine = await openMemory({ path: db, now: parseInstant("now", NOW) });
    try {
      return (await engine.history(id)).edges.length;
    } finally {
      await engine.close();
    }
  };
  const a = await run("add", "We raise the connection pool size to 50.", "--at", "2026-02-01");
  const b = await run("add", "We reverted the connection pool size back to 20.", "--at", "2026-06-01", "--config", off);
  assert.equal(await edges(b.id), 0, "detection was off for this add");
  const c = await run("add", "Actually we reverted the connection pool size back to 30.", "--at", "2026-06-02");
  assert.ok((await edges(c.id)) >= 1, "and on by default");
  assert.equal((await run("search", "connection pool", "--config", off)).k, 3);
  assert.ok(a.id);

  const bad = join(dir, "bad.json");
  writeFileSync(bad, JSON.stringify({ engine: { demotion: 2 } }));
  const r = cli(["search", "x", "--db", db, "--config", bad]);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /config\.engine\.demotion: /);
});

test("a transcript line that already names its speaker is not prefixed twice", async () => {
  const db = join(tempDir(), "speaker.db");
  assert.equal((await cliHere(["--db", db, "add", "Priya: the rollout is paused until Monday", "--speaker", "Priya"])).status, 0);
  const out = (await cliHere(["--db", db, "search", "rollout paused"])).stdout;
  assert.match(out, /Priya: the rollout is paused/);
  assert.doesNotMatch(out, /Priya: Priya:/);
});

test("--version, an unknown command (even with --help), a port out of range, the channel count", async () => {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
  // `--version` alone is answered before the commands load; with a global flag beside it, Commander answers: the same
  const versions = [["--version"], ["-V"], ["--json", "--version"], ["--db", "x.db", "-V"]];
  const unknown = [["frobnicate"], ["frobnicate", "--help"], ["--db", "x.db", "frobnicate"]];
  // processes: the port's refusal, `--version` alone (answered before anything loads) and `frobnicate --help`
  // (Commander's own answer to --help); the rest in this process
  const runs = [["serve", "--port", "99999"], ["--help"], ...versions, ...unknown];
  const processes = new Set([0, 2, 2 + versions.length + 1]);
  const here = await Promise.all(runs.map((args, i) => (processes.has(i) ? null : cliHere(args))));
  const spawned = await cliAll(runs.filter((_, i) => processes.has(i)));
  const [port, help, ...rest] = runs.map((_, i) => here[i] ?? spawned[[...processes].indexOf(i)]);
  for (const [i, args] of versions.entries()) {
    const v = rest[i];
    assert.deepEqual([v.status, v.stdout, v.stderr], [0, `${pkg.version}\n`, ""], args.join(" "));
  }
  for (const [i, args] of unknown.entries()) {
    const r = rest[versions.length + i];
    assert.equal(r.status, 2, args.join(" "));
    assert.equal(r.stderr, "cascade: unknown command 'frobnicate' (cascade --help lists them)\n");
    assert.equal(r.stdout, "");
  }
  assert.equal(port.status, 2);
  assert.match(port.stderr, /^cascade: .*--port must be an integer from 0 to 65535, got "99999"\n$/);
  // the help, the package and the README count the channels --channels accepts
  const seven = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"][CHANNEL_NAMES.length];
  assert.match(help.stdout.replace(/\s+/g, " "), new RegExp(`${seven} retrieval channels`));
  assert.match(pkg.description, new RegExp(`${seven} retrieval channels`));
  assert.doesNotMatch(`${help.stdout} ${pkg.description}`, /\b(five|six) retrieval channels/);
});

// Opening a store with the default embedder used to read the word vectors, which on an empty cache converts the
// package's JSON into it: these commands would leave the cache full.
test("stats, show and list read what is stored and never load the word vectors (an empty vector cache stays empty)", async () => {
  const db = join(tempDir(), "m.db");
  // the store (the demo corpus) written in this process: the processes under test are the three below
  const engine = await openMemory({ path: db });
  const id = ((await engine.rememberMany(demoCorpus)).ids as string[])[0];
  await engine.close();
  const cache = tempDir();
  const commands = [["stats"], ["show", id], ["list", "--limit", "5"]];
  const results = await cliAll(commands.map((args) => ["--db", db, ...args]), { env: { CASCADE_CACHE_DIR: cache } });
  for (const [i, r] of results.entries()) assert.equal(r.status, 0, `${commands[i][0]}: ${r.stderr}`);
  // the three ran side by side: a file any of them wrote is in the cache by now
  assert.deepEqual(readdirSync(cache), [], "stats, show or list read the word vectors");
});
