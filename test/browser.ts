/**
 * A real headless Chromium for the inspector's end-to-end tests: Debian's `chromium` driven by playwright-core
 * (no browser download). A missing Chromium is a failure with a clear message, never a silent skip: CI installs
 * it in .ci/run. Each launch gets a fresh profile folder, and the flags keep Chromium off the network.
 */
import { existsSync, mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { chromium, type BrowserContext } from "playwright-core";
import { tempDir } from "./helpers.js";

export const CHROMIUM_PATH = process.env.CASCADE_CHROMIUM ?? "/usr/bin/chromium";

export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Where screenshots go: test-output/inspector/ at the repository root (gitignored). */
export const SCREENSHOT_DIR = fileURLToPath(new URL("../../test-output/inspector/", import.meta.url));

export async function launchChromium(): Promise<BrowserContext> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM_PATH}: the web inspector's end-to-end tests need Debian's chromium ` +
        `(apt-get install -y --no-install-recommends chromium, as .ci/run does), or set CASCADE_CHROMIUM to a Chromium binary`,
    );
  }
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return chromium.launchPersistentContext(tempDir(), {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: 1280, height: 900 },
  });
}
