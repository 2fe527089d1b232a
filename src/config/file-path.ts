/**
 * @module config/file-path
 * Which config file applies, found without reading it: apart from config/file.ts (its schema, zod) so that a
 * command can tell that there is none without loading that schema.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { CascadeError } from "../errors.js";

export const CONFIG_FILE_NAME = "cascade.config.json";

/** The config file that applies (--config, else $CASCADE_CONFIG, else ./cascade.config.json), or null when the default one is absent; an explicit path must exist. */
export function configFilePath(explicitPath?: string): string | null {
  const path = explicitPath ?? process.env.CASCADE_CONFIG ?? join(process.cwd(), CONFIG_FILE_NAME);
  if (existsSync(path)) return path;
  if (explicitPath ?? process.env.CASCADE_CONFIG) throw new CascadeError("INVALID_INPUT", `config: no file at ${path}`, { field: "config" });
  return null;
}
