/**
 * @module api/space
 * Namespaces. Each namespace is its own SQLite file beside the default one (`memory.db` →
 * `memory.db.ns/<name>.db`), so isolation holds by construction: no query, index, edge or future summary can
 * reach across, whatever its filters.
 *
 * A server must not let its callers decide how many files it holds open: each open store costs three file
 * descriptors and its caches, and a name in a header is free to invent (3,000 names once took 9,021 descriptors
 * and 1.5 GB). So reads of a namespace that does not exist do not create it, at most `maxNamespaces` are
 * created, and at most `openStores` stay open: the least recently used one that no request is using is closed.
 */
import { existsSync, readdirSync } from "node:fs";
import { CascadeError, invalidInput } from "../errors.js";
import { DEFAULT_NAMESPACE, isFileLocation, namespaceDir, namespacePath, validateNamespace } from "./namespaces.js";
import type { Engine } from "./engine.js";
import { openMemory, type OpenMemoryOptions } from "./open.js";


export interface SpaceLimits {
  openStores: number;
  maxNamespaces: number;
}

export const defaultSpaceLimits: Readonly<SpaceLimits> = Object.freeze({
  /** Stores open at once (three descriptors each); a closed one reopens in a few milliseconds. */
  openStores: 32,
  /** Namespaces that may exist beside the default one; past it, a write naming a new one is refused. */
  maxNamespaces: 1000,
});

/** An engine held for one request; `release` lets the space close it again when it needs the room. */
export interface Lease {
  engine: Engine;
  release(): void;
}

interface Slot {
  engine: Promise<Engine>;
  leases: number;
  /** Opened through `engine()`, which hands out no lease: never closed before the space is. */
  pinned: boolean;
}

export class MemorySpace {
  /** Open stores, least recently used first (a Map keeps insertion order; a use re-inserts). */
  private readonly slots = new Map<string, Slot>();
  readonly limits: SpaceLimits;

  constructor(
    readonly basePath: string,
    private readonly options: Omit<OpenMemoryOptions, "path"> & { limits?: Partial<SpaceLimits> } = {},
  ) {
    this.limits = {
      openStores: options.limits?.openStores ?? defaultSpaceLimits.openStores,
      maxNamespaces: options.limits?.maxNamespaces ?? defaultSpaceLimits.maxNamespaces,
    };
  }

  /**
   * The engine of a namespace for the length of one use. Without `create`, a namespace that does not exist
   * yet is NOT_FOUND (the default namespace always opens).
   */
  async acquire(namespace: string = DEFAULT_NAMESPACE, options: { create?: boolean } = {}): Promise<Lease> {
    const slot = this.slot(validateNamespace(namespace), options.create ?? false, false);
    slot.leases++;
    let engine: Engine;
    try {
      engine = await slot.engine;
    } catch (err) {
      slot.leases--;
      throw err;
    }
    let released = false;
    return {
      engine,
      release: () => {
        if (released) return;
        released = true;
        slot.leases--;
        this.closeIdle();
      },
    };
  }

  /** The engine of a namespace (default when absent), opened once and kept open until the space closes. */
  engine(namespace: string = DEFAULT_NAMESPACE, options: { create?: boolean } = { create: true }): Promise<Engine> {
    return this.slot(validateNamespace(namespace), options.create ?? true, true).engine;
  }

  private slot(name: string, create: boolean, pin: boolean): Slot {
    let slot = this.slots.get(name);
    if (slot) {
      this.slots.delete(name); // most recently used goes last
      this.slots.set(name, slot);
      slot.pinned ||= pin;
      return slot;
    }
    const path = namespacePath(this.basePath, name);
    if (name !== DEFAULT_NAMESPACE && isFileLocation(path) && !existsSync(path)) {
      if (!create) throw new CascadeError("NOT_FOUND", `no namespace ${JSON.stringify(name)} (a namespace is created by its first write)`, { field: "namespace" });
      if (this.namespaceCount() >= this.limits.maxNamespaces) {
        throw invalidInput("namespace", `this store already holds its maximum of ${this.limits.maxNamespaces} namespaces; ${JSON.stringify(name)} was not created`);
      }
    }
    const { limits: _limits, ...open } = this.options;
    // a PostgreSQL namespace is checked by its store when opened (api/open), not by a file
    const mustExist = !create && name !== DEFAULT_NAMESPACE && !isFileLocation(path) && path !== ":memory:";
    slot = { engine: openMemory(mustExist ? { ...open, path: this.basePath, namespace: name, create: false } : { ...open, path }), leases: 0, pinned: pin };
    const created = slot;
    slot.engine.catch(() => this.slots.get(name) === created && this.slots.delete(name));
    this.slots.set(name, slot);
    // not the slot just opened: its caller takes its lease only once this returns, and a store closed as it opens
    // fails the request it was opened for ("The database connection is not open")
    this.closeIdle(slot);
    return slot;
  }

  private namespaceCount(): number {
    try {
      return readdirSync(namespaceDir(this.basePath)).filter((f) => f.endsWith(".db")).length;
    } catch {
      return 0;
    }
  }

  /**
   * Closes the least recently used stores nobody is using until at most `openStores` are open (more stay open while
   * more are in use; the next release closes them).
   */
  private closeIdle(opening?: Slot): void {
    let excess = this.slots.size - this.limits.openStores;
    for (const [name, slot] of this.slots) {
      if (excess <= 0) break;
      if (slot.leases > 0 || slot.pinned || slot === opening) continue;
      this.slots.delete(name);
      excess--;
      slot.engine.then((e) => e.close()).catch(() => undefined);
    }
  }

  /** The namespaces whose stores are open now, least recently used first (what a metrics scrape reports on). */
  openNamespaces(): string[] {
    return [...this.slots.keys()];
  }

  /** How many stores are open now (for tests and stats). */
  get openCount(): number {
    return this.slots.size;
  }

  async close(): Promise<void> {
    const all = [...this.slots.values()];
    this.slots.clear();
    await Promise.all(all.map(async (s) => (await s.engine.catch(() => null))?.close()));
  }
}
