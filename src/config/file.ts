/**
 * @module config/file
 * The optional config file (`cascade.config.json` in the working folder, or the path in --config or
 * $CASCADE_CONFIG). Flags override it; it overrides the built-in defaults.
 */
import { readFileSync } from "node:fs";
import { z } from "zod";
import { CascadeError } from "../errors.js";
import { engineConfigSchema, searchDefaultsSchema } from "./engine-schema.js";
import { parseWith } from "../validate.js";
import { CONFIG_FILE_NAME, configFilePath } from "./file-path.js";

export const configFileSchema = z
  .object({
    db: z.string().optional(),
    search: searchDefaultsSchema.optional(),
    engine: engineConfigSchema.optional(),
    /** `cascade serve`: who may call it and how many namespaces it keeps (flags override). */
    serve: z
      .object({
        allowOrigins: z.array(z.string().url()).max(100),
        allowHosts: z.array(z.string().min(1)).max(100),
        maxNamespaces: z.number().int().min(0),
        openNamespaces: z.number().int().min(1),
        /** `serve --workers`: server processes sharing the port and the store. */
        workers: z.number().int().min(1).max(64),
      })
      .partial()
      .strict()
      .optional(),
  })
  .strict();

export type ConfigFile = z.infer<typeof configFileSchema>;

export { CONFIG_FILE_NAME };

/** Reads the config file; an explicit path must exist, the default one may be absent. */
export function loadConfigFile(explicitPath?: string): ConfigFile {
  const path = configFilePath(explicitPath);
  if (path === null) return {};
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    throw new CascadeError("INVALID_INPUT", `config: ${path} is not valid JSON (${(err as Error).message})`, { field: "config" });
  }
  return parseWith(configFileSchema, json, "config");
}
