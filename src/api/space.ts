/**
 * @module api/space
 * Namespaces. Each namespace is its own SQLite file beside the default one (`memory.db` →
 * `memory.db.ns/<name>.db`), so isolation holds by construction: no query, index, edge or future summary can
 * reach across, whatever its filters. Engines are opened on first use and kept open.
 */
import { dirname, join, basename } from "node:path";
import { invalidInput } from "../errors.js";
import type { Engine } from "./engine.js";
import { openMemory, type OpenMemoryOptions } from "./open.js";

export const DEFAULT_NAMESPACE = "default";
const NAME = /^[A-Za-z0-9_-]{1,64}$/;

export function validateNamespace(name: string): string {
  if (!NAME.test(name)) throw invalidInput("namespace", `${JSON.stringify(name.slice(0, 80))} must be 1–64 letters, digits, _ or -`);
  return name;
}

/** The store file of a namespace. */
export function namespacePath(basePath: string, namespace: string): string {
  if (namespace === DEFAULT_NAMESPACE || basePath === ":memory:") return basePath;
  return join(dirname(basePath), `${basename(basePath)}.ns`, `${validateNamespace(namespace)}.db`);
}

export class MemorySpace {
  private readonly engines = new Map<string, Promise<Engine>>();

  constructor(
    readonly basePath: string,
    private readonly options: Omit<OpenMemoryOptions, "path"> = {},
  ) {}

  /** The engine of a namespace (default when absent), opened once. */
  engine(namespace: string = DEFAULT_NAMESPACE): Promise<Engine> {
    const name = validateNamespace(namespace);
    let e = this.engines.get(name);
    if (!e) {
      e = openMemory({ ...this.options, path: namespacePath(this.basePath, name) });
      e.catch(() => this.engines.delete(name));
      this.engines.set(name, e);
    }
    return e;
  }

  async close(): Promise<void> {
    const all = [...this.engines.values()];
    this.engines.clear();
    await Promise.all(all.map(async (e) => (await e.catch(() => null))?.close()));
  }
}
