/**
 * @module api/namespaces
 * Namespace names and where each namespace's store lives (`memory.db` → `memory.db.ns/<name>.db`). Apart from
 * api/space so that opening a store (api/open) and holding many (api/space) both read it without a circle.
 */
import { basename, dirname, join } from "node:path";
import { invalidInput } from "../errors.js";

export const DEFAULT_NAMESPACE = "default";
const NAME = /^[A-Za-z0-9_-]{1,64}$/;

export function validateNamespace(name: string): string {
  if (typeof name !== "string" || !NAME.test(name)) throw invalidInput("namespace", `${JSON.stringify(String(name).slice(0, 80))} must be 1–64 letters, digits, _ or -`);
  return name;
}

/** The store file of a namespace. */
export function namespacePath(basePath: string, namespace: string): string {
  if (namespace === DEFAULT_NAMESPACE || basePath === ":memory:") return basePath;
  // PostgreSQL keeps every namespace in the same tables: the name rides in the location's fragment (backends/postgres/open)
  if (/^(postgres|postgresql|pglite):/i.test(basePath)) return `${basePath.split("#")[0]}#namespace=${validateNamespace(namespace)}`;
  return join(namespaceDir(basePath), `${validateNamespace(namespace)}.db`);
}

export function namespaceDir(basePath: string): string {
  return join(dirname(basePath), `${basename(basePath)}.ns`);
}
