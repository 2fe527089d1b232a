/**
 * The web inspector shows a stale summary as one: under its hit card (and its context block) the words the CLI
 * and MCP print (STALE_SUMMARY_NOTE). A real server on a loopback port over a store whose day summary is stale
 * while the pyramid's refresh is held (test/stale-summary-scenario.ts), driven in headless Chromium (test/browser.ts).
 * A file of its own: the store needs a held summariser, which inspector.test.ts's shared demo store has not.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { BrowserContext, Page } from "playwright-core";
import { MemorySpace, STALE_SUMMARY_NOTE } from "../src/index.js";
import { startHttpServer, type RunningServer } from "../src/surfaces/http/serve.js";
import { BROWSER_SKIP, launchChromium } from "./browser.js";
import { tempDir } from "./helpers.js";
import { HeldSummarizer, makeDayStale, STALE_CONTEXT, STALE_DAY_NODE, STALE_NOW, STALE_SPAN_QUESTION } from "./stale-summary-scenario.js";

const TOKEN = "inspector-stale-token";

describe("web inspector: a stale summary's card says so", { skip: BROWSER_SKIP }, () => {
  let space: MemorySpace;
  let server: RunningServer;
  let browser: BrowserContext;
  let page: Page;
  let movedId: string;
  let release: () => Promise<void>;

  before(async () => {
    const summarizer = new HeldSummarizer();
    space = new MemorySpace(join(tempDir(), "stale.db"), { now: STALE_NOW, summarizer, context: STALE_CONTEXT });
    server = await startHttpServer(space, { host: "127.0.0.1", port: 0, token: TOKEN });
    browser = await launchChromium();
    page = await browser.newPage();
    await page.goto(`${server.url}/`);
    await page.locator("#token-form").waitFor({ state: "visible" });
    await page.locator("#token").fill(TOKEN);
    await page.keyboard.press("Enter");
    await page.locator("#query").waitFor({ state: "visible" });
    // the page's first request (GET /v1/stats, which checks the token) waits for the pyramid: made stale only after
    ({ movedId, release } = await makeDayStale(await space.engine(), summarizer));
  });
  after(async () => {
    await release?.();
    await browser?.close();
    await server?.close();
  });

  test("the stale day summary's hit card shows the note; the memory's card does not", async () => {
    await page.evaluate(`location.hash = ${JSON.stringify(`#search?query=${encodeURIComponent(STALE_SPAN_QUESTION)}`)}`);
    const day = page.locator(`.hit[data-id="${STALE_DAY_NODE}"]`);
    await day.waitFor({ state: "visible" });
    const note = day.locator(".stale-note");
    assert.equal(await note.isVisible(), true);
    assert.equal(await note.innerText(), STALE_SUMMARY_NOTE);
    assert.ok((await day.innerText()).includes(STALE_SUMMARY_NOTE), "a person reads it on the card");
    const moved = page.locator(`.hit[data-id="${movedId}"]`);
    await moved.waitFor({ state: "visible" });
    assert.ok(!(await moved.innerText()).includes(STALE_SUMMARY_NOTE), "a memory is never stale");
  });

  test("a stale summary given as context shows the note beside it", async () => {
    await page.evaluate(`location.hash = ${JSON.stringify("#search?query=Lisbon+trip")}`);
    const day = page.locator(`.context[data-id="${STALE_DAY_NODE}"]`);
    await day.waitFor({ state: "visible" });
    assert.ok((await day.innerText()).includes(STALE_SUMMARY_NOTE), await day.innerText());
  });
});
