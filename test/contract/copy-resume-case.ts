/**
 * The contract's interrupted-copy case (ports/copy: the copy mark). A copy stopped after its third page leaves the
 * target marked, the mark naming where the next page starts; a page that is refused leaves the mark as it was (it
 * is kept in the page's transaction); the copy resumed from the mark ends with every record once, as a copy that
 * was never stopped; the settings the copy carries never hold the mark, and getMeta never sees it. A mark is also
 * set and removed on its own (setMark), as migrate marks its target before the first page and clears it at the end.
 */
import assert from "node:assert/strict";
import { copyStore } from "../../src/api/migrate.js";
import type { CopySection } from "../../src/ports/copy.js";
import type { Store } from "../../src/ports/store.js";
import { fullStore } from "./copy-case.js";

type Next = { section: CopySection | null; after: string | null; done: number; total: number };

export async function copyResumeCase(open: () => Promise<Store>): Promise<void> {
  const { store: source } = await fullStore(open);
  const target = await open();
  assert.equal(await target.copy.mark(), null, "a new store carries no mark");
  await target.copy.setMark("before the first page");
  assert.equal(await target.copy.mark(), "before the first page", "a mark set on its own");
  const stop = new AbortController();
  let pages = 0;
  const mark = (next: Next) => JSON.stringify(next);
  await assert.rejects(
    copyStore(source, target, { batch: 2, mark, signal: stop.signal, onProgress: () => ++pages === 3 && stop.abort() }),
    (err: Error) => err.name === "AbortError",
  );
  const stopped = JSON.parse((await target.copy.mark())!) as Next;
  assert.ok(stopped.section !== null && stopped.done > 0 && stopped.done < stopped.total, `the mark says where the copy stopped: ${JSON.stringify(stopped)}`);
  const partial = await target.copy.counts();
  assert.ok(partial.memories < (await source.copy.counts()).memories, "the copy stopped part-way");

  // a page the target refuses (its ids are there) changes neither the records nor the mark
  const first = await source.copy.read("topics", { after: null, limit: 2 });
  await assert.rejects(target.copy.write("topics", first.records, "a mark of a page that never committed"));
  assert.deepEqual(JSON.parse((await target.copy.mark())!), stopped, "a refused page leaves the mark");

  const { section, after, done } = stopped;
  await copyStore(source, target, { batch: 2, mark, resume: { section: section!, after, done } });
  assert.deepEqual(await target.copy.counts(), await source.copy.counts(), "resumed, every record is there once");
  assert.equal((JSON.parse((await target.copy.mark())!) as Next).section, null, "the last page's mark says the copy is whole");
  const settings = await target.copy.read("settings", { after: null, limit: 1 });
  assert.ok(!JSON.stringify(settings.records).includes("incomplete"), "the mark is not a setting a copy carries");
  assert.equal(await target.getMeta("copy.incomplete"), null);
  await target.copy.setMark(null);
  assert.equal(await target.copy.mark(), null);
  await source.close();
  await target.close();
}
