/**
 * A store from before mention_forms (schema 13) is upgraded conservatively: each mention is credited with every
 * form of its entity, since which one a memory used was never recorded. Forgetting then renames nothing and drops
 * no alias that an older memory may have used; memories written after the upgrade are tracked exactly.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import Database from "better-sqlite3";
import { openMemory, parseInstant } from "../src/index.js";
import { tempDir } from "./helpers.js";

const now = parseInstant("now", "2026-06-20T09:00:00Z");

test("an upgraded store keeps every form its older mentions may have used", async () => {
  const db = join(tempDir(), "forms-upgrade.db");
  const engine = await openMemory({ path: db, now });
  const painted = await engine.remember({ text: "I painted a sunset yesterday.", speaker: "Melanie", at: "2026-06-10T09:05:00Z" });
  await engine.remember({ text: "Hey Mel, how was the camping?", speaker: "Caroline", at: "2026-06-10T09:07:00Z" });
  await engine.close();
  const raw = new Database(db);
  raw.exec("DROP TABLE mention_forms; ALTER TABLE edges DROP COLUMN statement");
  raw.pragma("user_version = 13");
  raw.close();

  const upgraded = await openMemory({ path: db, now });
  await upgraded.forget(painted.id);
  const names = (await upgraded.entities()).entities.map((e) => `${e.name}:${e.memories}`);
  assert.deepEqual(names, ["Caroline:1", "Melanie:1"], "the older 'Hey Mel' is credited with 'Melanie' too: no rename");
  const later = await upgraded.remember({ text: "Melanie sent the photos.", speaker: "Caroline", at: "2026-06-11T09:00:00Z" });
  await upgraded.forget(later.id);
  assert.deepEqual((await upgraded.entities()).entities.map((e) => e.name), ["Caroline", "Melanie"]);
  await upgraded.close();
});
