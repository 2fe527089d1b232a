/**
 * Every language searchable by words: scripts written without spaces are cut into words (text/segment) the same
 * way on both sides of the index, Korean particles do not hide the word, accents fold (FTS5's unicode61).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { segmentScripts } from "../src/text/segment.js";
import { emptyEngine } from "./helpers.js";

const memories = [
  { text: "我们决定把配置文件迁移到 YAML 格式", at: "2026-01-01T00:00:00Z" },
  { text: "東京のデータセンターで障害が発生しました", at: "2026-01-02T00:00:00Z" },
  { text: "서버에서 장애가 발생했습니다", at: "2026-01-03T00:00:00Z" },
  { text: "ระบบล่มเมื่อวานนี้ที่กรุงเทพ", at: "2026-01-04T00:00:00Z" },
  { text: "Die Datenbankverbindung ist gestern fehlgeschlagen", at: "2026-01-05T00:00:00Z" },
  { text: "Rendez-vous au café près de la gare, très naïve idée", at: "2026-01-06T00:00:00Z" },
  { text: "The deployment pipeline is green again", at: "2026-01-07T00:00:00Z" },
  { text: "会議は来週の月曜日に移動しました", at: "2026-01-08T00:00:00Z", title: "会議の予定" },
];

const cases: [string, number][] = [
  ["配置文件", 0], // Chinese: a word inside a run
  ["迁移", 0],
  ["障害", 1], // Japanese kanji word
  ["データセンター", 1], // katakana compound
  ["장애", 2], // Korean word without its particle
  ["ล่ม", 3], // Thai
  ["Datenbankverbindung", 4], // German: whole compound words
  ["cafe naive", 5], // accents fold
  ["予定", 7], // the curated index (title) is cut too
];

test("words in Chinese, Japanese, Korean, Thai, German and accented Latin find their memory in bm25 and fused search", async () => {
  const { engine } = await emptyEngine();
  const ids = (await engine.rememberMany(memories)).ids;
  for (const [query, expected] of cases) {
    const bm25 = await engine.recall(query, { channels: ["bm25", "curated"], k: 3 });
    assert.equal(bm25.hits[0]?.id, ids[expected], `lexical search for ${query}`);
    const fused = await engine.recall(query, { k: 3 });
    assert.equal(fused.hits[0]?.id, ids[expected], `fused search for ${query}`);
  }
  const none = await engine.recall("配置文件迁移", { channels: ["bm25"], k: 10 });
  assert.ok(!none.hits.some((h) => h.id === ids[1]), "a Chinese query does not match the Japanese memory");
  const doctor = await engine.doctor({ repair: true });
  assert.ok(doctor.ok);
  assert.equal((await engine.recall("予定", { channels: ["curated"], k: 1 })).hits[0]?.id, ids[7], "a rebuilt curated index is cut the same way");
  await engine.close();
});

test("segmentation leaves spaced scripts alone and cuts the others into words", () => {
  assert.equal(segmentScripts("The deployment pipeline, café"), "The deployment pipeline, café");
  assert.deepEqual(segmentScripts("配置文件").trim().split(/\s+/), ["配置", "文件"]);
  assert.deepEqual(segmentScripts("장애가").split(" "), ["장애가", "장애", "애가"]);
  assert.match(segmentScripts("YAML格式"), /YAML 格式/);
});
