/**
 * @module api/open-store
 * Finding and opening the store an engine or a reader works on: the default location, a namespace's store, the
 * refusal of a missing store when nothing may be created, and of a copy `cascade migrate` has not finished. Shared
 * by openMemory (api/open.ts) and openReader (api/reader.ts), so that both answer the same for the same store.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { CascadeError } from "../errors.js";
import type { Store } from "../ports/store.js";
import { refuseIncompleteCopy } from "./copy-mark.js";
import { DEFAULT_NAMESPACE, isFileLocation, namespacePath } from "./namespaces.js";
import { openStoreAt } from "./stores.js";

export function defaultStorePath(): string {
  return process.env.CASCADE_DB || join(process.cwd(), ".cascade", "memory.db");
}

export interface StoreLocation {
  path?: string;
  namespace?: string;
  create?: boolean;
  /** @deprecated the former name of `create`. */
  createNamespace?: boolean;
}

/** Opens the store at a location (see OpenMemoryOptions for the fields); closed again when it is refused. */
export async function openLocatedStore(options: StoreLocation): Promise<Store> {
  const base = options.path ?? defaultStorePath();
  const path = namespacePath(base, options.namespace ?? DEFAULT_NAMESPACE);
  const mustExist = (options.create ?? options.createNamespace) === false && path !== ":memory:";
  const inNamespace = options.namespace !== undefined && options.namespace !== DEFAULT_NAMESPACE;
  const noNamespace = () => new CascadeError("NOT_FOUND", `no namespace ${JSON.stringify(options.namespace)} (a namespace is created by its first write)`, { field: "namespace" });
  const noStore = () => new CascadeError("NOT_FOUND", `no store at ${JSON.stringify(base)} (a store is created by its first write: add, import or demo)`, { field: "path" });
  // (a blank path is a mistake of form, which the backend names)
  if (mustExist && isFileLocation(path) && path.trim() !== "" && !existsSync(path)) throw inNamespace ? noNamespace() : noStore();
  const store = await openStoreAt(path);
  try {
    // a PostgreSQL namespace is rows in shared tables: it exists once something was written (and so stamped)
    if (mustExist && inNamespace && !isFileLocation(path) && (await store.embedderStamp()) === null) throw noNamespace();
    // a copy cascade migrate has not finished looks whole and is not: refused, saying how to resume it
    await refuseIncompleteCopy(store, base);
    return store;
  } catch (err) {
    await store.close();
    throw err;
  }
}
