/**
 * `cascade demo` tells the truth: every claim its annotations make holds in what it prints.
 * The test reads the demo's text as a person would — hit order, the channels beside each hit, status marks,
 * adjustments — and checks each query's claim; a query added without a check here fails.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { demoQueries } from "../src/index.js";
import { defaultWeights } from "../src/config/defaults.js";
import { cli } from "./helpers.js";

interface PrintedHit {
  rank: number;
  score: number;
  ranks: Record<string, number>;
  id: string;
  /** What follows the id on the hit's line: "(supersedes …)" or "SUPERSEDED by …". */
  mark: string;
  adjusted: string;
  text: string;
}

interface PrintedSearch {
  query: string;
  why: string;
  hits: PrintedHit[];
  /** Candidates per channel, from the timing line. */
  candidates: Record<string, number>;
  /** The context's summaries: "day 2026-06-16..2026-06-17". */
  context: string[];
}

const HIT = /^\s*(\d+)\. (\d\.\d+)\s+\[([^\]]*)\]\s+\d{4}-\d{2}-\d{2}\s+.*?(m_[0-9A-Z]+)\s*(.*)$/;

function parseDemo(stdout: string): { searches: PrintedSearch[]; footer: string } {
  const blocks = stdout.split("\n$ cascade search ").slice(1);
  const searches = blocks.map((block) => {
    const lines = block.split("\n");
    const query = JSON.parse(lines[0]) as string;
    const why = /^\s*\((.*)\)$/.exec(lines[1])![1];
    const hits: PrintedHit[] = [];
    for (const line of lines.slice(2)) {
      const m = HIT.exec(line);
      if (m) {
        const ranks = Object.fromEntries(m[3].split(" ").map((r) => r.split("#")).map(([c, n]) => [c, Number(n)]));
        hits.push({ rank: Number(m[1]), score: Number(m[2]), ranks, id: m[4], mark: m[5], adjusted: "", text: "" });
      } else if (hits.length && /^\s+adjusted: /.test(line)) hits.at(-1)!.adjusted = line.trim();
      else if (hits.length && !hits.at(-1)!.text && /^\s{4}\S/.test(line)) hits.at(-1)!.text = line.trim();
    }
    const timing = lines.find((l) => /^\(\d/.test(l)) ?? "";
    const candidates = Object.fromEntries([...timing.matchAll(/(\w+) (\d+) in /g)].map((m) => [m[1], Number(m[2])]));
    const context = lines.flatMap((l) => /^ {2}((?:turn|day|week|month) \S+)\s+p_/.exec(l)?.[1] ?? []);
    return { query, why, hits, candidates, context };
  });
  return { searches, footer: stdout.trim().split("\n").at(-1)! };
}

const run = parseDemo(cli(["demo"]).stdout);
const search = (query: string) => run.searches.find((s) => s.query === query)!;
const channels = (h: PrintedHit) => Object.keys(h.ranks).filter((c) => c !== "recency").sort();

test("the demo prints every query with its annotation", () => {
  assert.deepEqual(run.searches.map((s) => [s.query, s.why]), demoQueries.map((q) => [q.query, q.why]));
  assert.deepEqual(Object.keys(CLAIMS).sort(), demoQueries.map((q) => q.query).sort(), "each annotated query has a check");
});

const CLAIMS: Record<string, (s: PrintedSearch) => void> = {
  "what did we decide about where configuration lives?": (s) => {
    // the reversal comes first
    const [first] = s.hits;
    assert.match(first.text, /^Decision reversed: configuration back to environment variables/);
    // the February decision is still shown, marked SUPERSEDED (by the reversal) and its score halved
    const february = s.hits.find((h) => h.text.startsWith("Decision: configuration moves to YAML files"));
    assert.ok(february, "the February decision is printed");
    assert.equal(february.mark, `SUPERSEDED by ${first.id}`);
    assert.match(february.adjusted, new RegExp(`superseded by ${first.id} ×0\\.50?(?!\\d)`));
    assert.equal(first.mark, `(supersedes ${february.id})`);
    // no other hit is marked as replaced or replacing
    for (const h of s.hits) if (h !== first && h !== february) assert.equal(h.mark, "", h.text);
  },
  ECONNRESET: (s) => {
    // an identifier no embedder knows: BM25 and late interaction match it exactly
    const [first, ...rest] = s.hits;
    assert.match(first.text, /ECONNRESET/);
    assert.deepEqual(channels(first), ["bm25", "colbert"]);
    assert.equal(first.ranks.bm25, 1);
    assert.equal(first.ranks.colbert, 1);
    assert.equal(s.candidates.dense, 0, "the dense channel finds nothing");
    // the graph channel alone adds related memories below it
    assert.ok(rest.length > 0);
    for (const h of rest) assert.deepEqual(channels(h), ["graph"], h.text);
  },
  "puppy chewed my earphones": (s) => {
    // no shared words: dense and late interaction find the paraphrase
    const [first] = s.hits;
    assert.match(first.text, /My dog ate my headphones/);
    assert.deepEqual(channels(first), ["colbert", "dense"]);
    assert.equal(s.candidates.bm25, 0, "no word of the query is in the store");
    for (const w of ["puppy", "chewed", "earphones"]) assert.doesNotMatch(first.text, new RegExp(w, "i"));
  },
  "card tokenisation vendor": (s) => {
    // the curated title and tags agree with the body: both rank the vendor decision first
    const [first] = s.hits;
    assert.match(first.text, /^Decision: Vaultline for card tokenisation/);
    assert.equal(first.ranks.curated, 1);
    assert.equal(first.ranks.bm25, 1);
  },
  "what happened last Tuesday": (s) => {
    // a question that names only a time: the time channel puts what was written that Tuesday (June 16) first
    const [first, ...rest] = s.hits;
    assert.match(first.text, /^On-call handbook: database failover/);
    assert.equal(first.ranks.time, 1);
    assert.match(first.adjusted, /in time window "last Tuesday" \(2026-06-16T00:00:00Z to 2026-06-17T00:00:00Z\) ×1\.50?(?!\d)/);
    // with that day's summary as context
    assert.equal(s.context[0], "day 2026-06-16..2026-06-17");
    // the graph channel alone adds related memories below it
    assert.ok(rest.length > 0);
    for (const h of rest) assert.deepEqual(channels(h), ["graph"], h.text);
  },
};

for (const [query, check] of Object.entries(CLAIMS)) {
  test(`demo: "${query}" shows what its annotation says`, () => check(search(query)));
}

test("demo: each printed score is the weighted RRF sum of the printed ranks, times the factors, plus the amounts", () => {
  assert.match(run.footer, /the score is the weighted RRF sum of those ranks, times each "adjusted" factor, plus each "\+" amount/);
  for (const s of run.searches) {
    for (const h of s.hits) {
      const rrf = Object.entries(h.ranks).reduce((sum, [c, r]) => sum + defaultWeights[c as keyof typeof defaultWeights] / (60 + r), 0);
      const factors = [...h.adjusted.matchAll(/×(\d+(?:\.\d+)?)/g)].reduce((p, m) => p * Number(m[1]), 1);
      const amounts = [...h.adjusted.matchAll(/\+(\d+\.\d+)/g)].reduce((a, m) => a + Number(m[1]), 0);
      // printed scores have four decimals, factors perhaps two
      assert.ok(Math.abs(rrf * factors + amounts - h.score) < 6e-4, `${s.query} #${h.rank}: ${rrf} × ${factors} + ${amounts} vs ${h.score}`);
    }
  }
});
