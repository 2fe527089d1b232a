/**
 * The inspector's end-to-end tests run in a real headless Chromium (bench/chromium.ts) with a fresh profile in a
 * temporary folder; screenshots go to test-output/inspector/ at the repository root (gitignored).
 */
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { BrowserContext } from "playwright-core";
import { launchChromium as launch } from "../bench/chromium.js";
import { tempDir } from "./helpers.js";

export const SCREENSHOT_DIR = fileURLToPath(new URL("../../test-output/inspector/", import.meta.url));

export async function launchChromium(): Promise<BrowserContext> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return launch(tempDir());
}
