/**
 * @module vectors/usearch
 * usearch (a native addon), required when a vector is first searched or a graph first built, not when a module
 * that can do so is imported: a command that reads no vector (`cascade stats`, `list`, `show`) never loads it.
 *
 * The CommonJS entry: usearch's ESM entry finds its native build by walking up from a path parsed out of a stack
 * trace, which recurses forever when the caller has no file path (node -e, some bundlers); the CommonJS entry
 * uses __dirname.
 */
import { createRequire } from "node:module";
import type * as UsearchModule from "usearch";

let loaded: typeof UsearchModule | undefined;

export function usearch(): typeof UsearchModule {
  return (loaded ??= createRequire(import.meta.url)("usearch") as typeof UsearchModule);
}
