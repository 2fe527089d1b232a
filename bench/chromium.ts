/**
 * Debian's Chromium driven by playwright-core (browser downloads are impossible here), shared by the inspector's
 * end-to-end tests and its benchmark. The flags keep Chromium off the network (no background, component, sync or
 * QUIC traffic); a missing binary is an error that says how to install it, never a silent skip.
 */
import { existsSync } from "node:fs";
import { chromium, type BrowserContext } from "playwright-core";

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

/** A fresh Chromium with its own profile folder (`profileDir` must be new and empty). */
export async function launchChromium(profileDir: string): Promise<BrowserContext> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM_PATH}: the web inspector's end-to-end tests need Debian's chromium ` +
        `(apt-get install -y --no-install-recommends chromium, as .ci/run does), or set CASCADE_CHROMIUM to a Chromium binary`,
    );
  }
  return chromium.launchPersistentContext(profileDir, { executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_FLAGS, viewport: { width: 1280, height: 900 } });
}
