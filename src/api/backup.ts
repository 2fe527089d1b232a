/**
 * @module api/backup
 * `cascade backup PATH`: a consistent copy of a live SQLite store, every namespace's file, laid out as at the
 * source (PATH, PATH.ns/<name>.db), taken with SQLite's online backup while writers continue
 * (backends/sqlite/backup.ts). Each namespace's copy holds every write acknowledged before its copy began.
 * PostgreSQL is backed up with the server's own tools (pg_dump; docs/OPERATIONS.md).
 */
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { dirname } from "node:path";
import { CascadeError, invalidInput } from "../errors.js";
import { backupFile } from "../backends/sqlite/backup.js";
import { DEFAULT_NAMESPACE, isFileLocation, namespaceDir, namespacePath } from "./namespaces.js";

export interface BackupReport {
  path: string;
  namespaces: { namespace: string; path: string; pages: number; bytes: number }[];
  took_ms: number;
}

function namespacesOf(location: string): string[] {
  const dir = namespaceDir(location);
  const others = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".db")).map((f) => f.slice(0, -3)).sort() : [];
  return [DEFAULT_NAMESPACE, ...others];
}

export async function backupStore(location: string, dest: string): Promise<BackupReport> {
  const started = performance.now();
  if (typeof dest !== "string" || dest.trim() === "") throw invalidInput("path", "give the file to write the backup to");
  if (!isFileLocation(location)) {
    const what = location === ":memory:" ? "a store in memory has no file to back up" : "a PostgreSQL store is backed up with pg_dump (see docs/OPERATIONS.md)";
    throw new CascadeError("UNSUPPORTED", `backup: ${what}`, { field: "db" });
  }
  if (!existsSync(location)) throw new CascadeError("NOT_FOUND", `no store at ${JSON.stringify(location)} to back up`, { field: "db" });
  const namespaces = namespacesOf(location);
  // never over another file: a backup replaces nothing, and the copy of a namespace must not land on a live store
  for (const ns of namespaces) {
    const to = namespacePath(dest, ns);
    if (existsSync(to)) throw invalidInput("path", `${to} already exists; back up to a new path`);
  }
  if (existsSync(namespaceDir(dest)) && namespaces.length > 1) throw invalidInput("path", `${namespaceDir(dest)} already exists; back up to a new path`);
  const copied: BackupReport["namespaces"] = [];
  for (const namespace of namespaces) {
    const to = namespacePath(dest, namespace);
    mkdirSync(dirname(to), { recursive: true });
    copied.push({ namespace, path: to, ...(await backupFile(namespacePath(location, namespace), to)) });
  }
  return { path: dest, namespaces: copied, took_ms: Math.round(performance.now() - started) };
}
