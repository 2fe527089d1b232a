/**
 * Forgetting wins against a summariser that is still working. A full pyramid build with a slow
 * chat summariser reads a day's turns, and while the model is answering, another connection forgets one of them
 * with `--purge`. The build must not then write the day's summary from what it read: before, the day, week and
 * month summaries held the forgotten text again after the purge had answered.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { openMemory, parseInstant, type Forgotten } from "../src/index.js";
import { answer, chatServer } from "./chat-server.js";
import { tempDir } from "./helpers.js";

const MARKER = "Vormelquist";
const now = parseInstant("now", "2026-06-20T09:00:00Z");
const chat = chatServer();

/** Copies of the marker's tail in the store's file and its log (see forget-purge.test.ts). */
function copies(db: string): number {
  let n = 0;
  for (const file of [db, `${db}-wal`]) if (existsSync(file)) n += readFileSync(file).toString("latin1").toLowerCase().split(MARKER.toLowerCase().slice(3)).length - 1;
  return n;
}

test("a summary is never written from a memory forgotten while the summariser was reading it", async () => {
  const db = join(tempDir(), "race.db");
  const writer = await openMemory({ path: db, now });
  await writer.remember({ text: "We met to plan the ledger migration.", speaker: "Ana", session: "s1", at: "2026-06-10T09:00:00Z" });
  const marked = await writer.remember({ text: `The secret project is called ${MARKER}.`, speaker: "Ben", session: "s1", at: "2026-06-10T09:05:00Z" });
  await writer.remember({ text: "Then we agreed to review the budget on Friday.", speaker: "Ana", session: "s1", at: "2026-06-10T09:10:00Z" });
  await writer.close();

  const builder = await openMemory({ path: db, now, chatSummarizer: { baseURL: chat.baseURL, model: "slow", retries: 0 } });
  const forgetter = await openMemory({ path: db, now });
  let forgetting: Promise<Forgotten> | null = null;
  // a model that quotes every line it was sent, and is still thinking when the forget arrives
  chat.reply = async (body) => {
    forgetting ??= forgetter.forget(marked.id, { purge: true });
    await forgetting;
    return answer(body.messages[1].content.split("\n\n")[1].replace(/\n/g, " "));
  };
  const report = await builder.buildPyramid({ full: true });
  const forgot = await forgetting!;
  assert.equal(forgot.purged?.checkpointed, true);
  assert.equal(report.refused, 1, "the day the build had read before the forget is not written");
  assert.match((await builder.show("p_day_2026-06-10")).text, /ledger migration/, "but written again from what exists now");
  for (const node of (await builder.pyramid()).nodes) assert.doesNotMatch((await builder.show(node.id)).text, new RegExp(MARKER, "i"), node.id);
  assert.equal(copies(db), 0, "no copy in the file or the log after the build");
  await builder.close();
  await forgetter.close();
  assert.equal(copies(db), 0);
});
