/**
 * @module api/snapshots
 * Consistent copies of a SQLite store's namespace files in a temporary folder, for a reader that pages through a
 * store another process may be writing (`cascade migrate`). Each folder names the process that made it (an
 * `owner` file holding its pid): a migrate killed outright (SIGKILL) runs no cleanup and left a whole copy of its
 * source in the temporary folder, out of reach of any later purge, so the next migrate removes every snapshot
 * whose owner is gone.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { snapshotFile } from "../backends/sqlite/snapshot.js";
import { namespacePath } from "./namespaces.js";

const PREFIX = "cascade-snapshot-";
/** A snapshot folder without an owner file (made before owners were written) is stale after this long. */
const UNOWNED_STALE_MS = 24 * 60 * 60 * 1000;

/**
 * Snapshots of each namespace's file at `location`, laid out as there (a namespace's file where namespacePath
 * puts it). `remove` deletes the folder.
 */
export function snapshotSqliteStore(location: string, namespaces: string[]): { location: string; dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), PREFIX));
  const copy = join(dir, basename(location));
  try {
    writeFileSync(join(dir, "owner"), String(process.pid));
    for (const ns of namespaces) {
      const [from, to] = [namespacePath(location, ns), namespacePath(copy, ns)];
      if (!existsSync(from)) continue;
      mkdirSync(dirname(to), { recursive: true });
      snapshotFile(from, to);
    }
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return { location: copy, dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Whether a process with this id runs (one of another user's counts as running: it is not ours to judge). */
function running(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Removes the snapshots whose process is gone (see the module note); returns the folders removed. */
export function removeStaleSnapshots(): string[] {
  const removed: string[] = [];
  for (const name of readdirSync(tmpdir()).filter((f) => f.startsWith(PREFIX))) {
    const dir = join(tmpdir(), name);
    try {
      const owner = join(dir, "owner");
      const stale = existsSync(owner)
        ? !running(Number(readFileSync(owner, "utf8")))
        : Date.now() - statSync(dir).mtimeMs > UNOWNED_STALE_MS;
      if (!stale) continue;
      rmSync(dir, { recursive: true, force: true });
      removed.push(dir);
    } catch {
      // another process removed it first, or it is not ours to read: left alone
    }
  }
  return removed;
}
