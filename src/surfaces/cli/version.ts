/**
 * @module surfaces/cli/version
 * The package's version, read from the package.json beside dist/ (the one file every install has).
 */
import { readFileSync } from "node:fs";

export const VERSION = (JSON.parse(readFileSync(new URL("../../../../package.json", import.meta.url), "utf8")) as { version: string }).version;
