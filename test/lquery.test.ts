import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { CascadeError, openMemory } from "../src/index.js";
import { join } from "node:path";
import { matchesLquery, parseLquery } from "../src/topics/lquery.js";
import { cli, cliHere, tempDir } from "./helpers.js";

// The example table of PostgreSQL's ltree documentation (F.23.4) and the results it documents.
const TREE = [
  "Top",
  "Top.Science",
  "Top.Science.Astronomy",
  "Top.Science.Astronomy.Astrophysics",
  "Top.Science.Astronomy.Cosmology",
  "Top.Hobbies",
  "Top.Hobbies.Amateurs_Astronomy",
  "Top.Collections",
  "Top.Collections.Pictures",
  "Top.Collections.Pictures.Astronomy",
  "Top.Collections.Pictures.Astronomy.Stars",
  "Top.Collections.Pictures.Astronomy.Galaxies",
  "Top.Collections.Pictures.Astronomy.Astronauts",
];
const match = (q: string) => TREE.filter((p) => matchesLquery(parseLquery(q), p));

describe("lquery, against PostgreSQL's documented results", () => {
  test("path ~ '*.Astronomy.*'", () => {
    assert.deepEqual(match("*.Astronomy.*"), [
      "Top.Science.Astronomy",
      "Top.Science.Astronomy.Astrophysics",
      "Top.Science.Astronomy.Cosmology",
      "Top.Collections.Pictures.Astronomy",
      "Top.Collections.Pictures.Astronomy.Stars",
      "Top.Collections.Pictures.Astronomy.Galaxies",
      "Top.Collections.Pictures.Astronomy.Astronauts",
    ]);
  });

  test("path ~ '*.!pictures@.Astronomy.*'", () => {
    assert.deepEqual(match("*.!pictures@.Astronomy.*"), ["Top.Science.Astronomy", "Top.Science.Astronomy.Astrophysics", "Top.Science.Astronomy.Cosmology"]);
  });

  test("quantified stars, alternatives, prefixes and words", () => {
    assert.deepEqual(match("Top.*{1}"), ["Top.Science", "Top.Hobbies", "Top.Collections"]);
    assert.deepEqual(match("Top.*{2,}.Astronomy"), ["Top.Collections.Pictures.Astronomy"]);
    assert.deepEqual(match("Top.*{,1}"), ["Top", "Top.Science", "Top.Hobbies", "Top.Collections"]);
    assert.deepEqual(match("*.Stars|Galaxies"), ["Top.Collections.Pictures.Astronomy.Stars", "Top.Collections.Pictures.Astronomy.Galaxies"]);
    assert.deepEqual(match("*.Astro*"), ["Top.Science.Astronomy", "Top.Science.Astronomy.Astrophysics", "Top.Collections.Pictures.Astronomy", "Top.Collections.Pictures.Astronomy.Astronauts"]);
    assert.deepEqual(match("Top.Hobbies.amateurs%@"), ["Top.Hobbies.Amateurs_Astronomy"]);
    assert.deepEqual(match("Top.Hobbies.Amateurs_Astro*%"), ["Top.Hobbies.Amateurs_Astronomy"]);
    assert.deepEqual(match("Top.Hobbies.Amateurs"), []); // plain labels match whole labels only
    assert.deepEqual(match("Top"), ["Top"]);
  });

  test("invalid patterns are refused with the reason", () => {
    for (const [q, reason] of [
      ["a..b", /item 2 is empty/],
      [".a", /item 1 is empty/],
      ["a.", /item 2 is empty/],
      ["a.*{2", /unbalanced braces/],
      ["a.*{3,1}", /upper bound below/],
      ["a b", /not a label/],
      ["foo{1,2}", /only on \*/],
      ["", /cannot be empty/],
    ] as [string, RegExp][]) {
      assert.throws(() => parseLquery(q), (e: unknown) => e instanceof CascadeError && e.code === "INVALID_INPUT" && /^match: /.test(e.message) && reason.test(e.message), q);
    }
  });
});

test("--match filters every channel to the matching topics (CLI)", async () => {
  const db = join(tempDir(), "match.db");
  // written in this process (what is tested is search --match; add --topic has CLI tests of its own)
  const engine = await openMemory({ path: db });
  try {
    for (const topic of ["retrieval.fusion.rrf", "retrieval.dense", "ops.fusion.reactor", "retrieval"]) {
      await engine.remember({ text: `Notes on fusion and retrieval for ${topic}`, topic });
    }
  } finally {
    await engine.close();
  }
  // the searches in this process (helpers cliHere: the same output and exit code), the refused one a CLI process
  const topics = async (q: string) => (await cliHere(["search", "fusion retrieval notes", "--match", q, "--db", db, "--json"])).json.hits.map((h: { topic: string }) => h.topic).sort();
  assert.deepEqual(await topics("*.fusion.*"), ["ops.fusion.reactor", "retrieval.fusion.rrf"]);
  assert.deepEqual(await topics("retrieval.*"), ["retrieval", "retrieval.dense", "retrieval.fusion.rrf"]);
  assert.deepEqual(await topics("retrieval.!dense.*"), ["retrieval.fusion.rrf"]);
  assert.deepEqual(await topics("nothing.here"), []);
  const bad = cli(["search", "x", "--match", "a..b", "--db", db]);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /match: "a..b": item 2 is empty/);
});
