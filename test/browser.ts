/**
 * The inspector's end-to-end tests run in a real headless Chromium (bench/chromium.ts) with a fresh profile in a
 * temporary folder; screenshots go to test-output/inspector/ at the repository root (gitignored).
 */
import { existsSync, mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { BrowserContext } from "playwright-core";
import { CHROMIUM_PATH, launchChromium as launch } from "../bench/chromium.js";
import { tempDir } from "./helpers.js";

export const SCREENSHOT_DIR = fileURLToPath(new URL("../../test-output/inspector/", import.meta.url));

export async function launchChromium(): Promise<BrowserContext> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return launch(tempDir());
}

/**
 * Why the browser tests are skipped, or false when they run. Without Chromium they are skipped with this reason
 * (`npm test` passes on a machine without a browser), unless CASCADE_REQUIRE_CHROMIUM=1 (as .ci/run sets): then
 * they run and the missing browser fails them with how to install it.
 */
export const BROWSER_SKIP: string | false =
  !existsSync(CHROMIUM_PATH) && process.env.CASCADE_REQUIRE_CHROMIUM !== "1"
    ? `no Chromium at ${CHROMIUM_PATH} (install Debian's chromium or set CASCADE_CHROMIUM; CASCADE_REQUIRE_CHROMIUM=1 makes this a failure)`
    : false;
