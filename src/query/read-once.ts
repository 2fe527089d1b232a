/**
 * @module query/read-once
 * The store as one search reads it: each chunk, memory, event time and session neighbourhood read once. The annotate
 * steps after fusion (query/search.ts) each look at the head of the ranking on their own terms, so without this
 * the same chunks were hydrated by up to five steps and the final hits, and the same session neighbours read by the
 * neighbour step, the echo step and coverage. Made at the start of a search and dropped with it: nothing is kept
 * between searches, so a write is seen by the next search as before.
 *
 * Answers are the store's own: a value read once is handed out again, never changed. Two differences a caller
 * could see, neither used by any step: a memory read through a chunk (`hydrate`) answers `getMemories` for it
 * (the same row, read the same way), and session neighbours read with a wider window answer a narrower one with
 * the nearest on each side (what the store answers: "up to `window` memories each side, nearest first"). Maps
 * come back in the order SQLite gives them: chunks by id, memories, times and neighbours in the order asked.
 *
 * A call that asks for something another call is still reading waits for that read: the steps run one after the
 * other, but query/reached reads side by side.
 */
import type { Memory } from "../model/types.js";
import type { HydratedChunk, SessionNeighbours, Store } from "../ports/store.js";

type Pending<V> = Promise<V | undefined>;

/**
 * Reads each key not yet asked for in one call of `read`, remembers each key's answer (undefined: the store has
 * none), and answers every key asked from what is remembered.
 */
function remembering<K, V>(known: Map<K, Pending<V>>, read: (keys: K[]) => Promise<Map<K, V>>) {
  return async (keys: K[]): Promise<[K, V][]> => {
    const asked = [...new Set(keys)];
    const missing = asked.filter((k) => !known.has(k));
    if (missing.length) {
      const reading = read(missing);
      for (const k of missing) known.set(k, reading.then((found) => found.get(k)));
    }
    const values = await Promise.all(asked.map((k) => known.get(k)!));
    return asked.flatMap((k, i) => (values[i] === undefined ? [] : [[k, values[i]] as [K, V]]));
  };
}

/** The store with its chunk, memory, event-time and session-neighbour reads made once; every other call as it is. */
export function readOnce(store: Store): Store {
  const memories = new Map<string, Pending<Memory>>();
  const chunks = new Map<number, Pending<HydratedChunk>>();
  const times = new Map<string, Pending<number>>();
  // by memory: the widest window read so far, and its answer
  const around = new Map<string, { window: number; value: Pending<SessionNeighbours> }>();

  const readMemories = remembering(memories, (ids: string[]) => store.getMemories(ids));
  const readChunks = remembering(chunks, async (ids: number[]) => {
    const found = await store.hydrate(ids);
    // a chunk's memory is the row getMemories reads: a step that asks for it next reads nothing
    for (const c of found.values()) if (!memories.has(c.memory.id)) memories.set(c.memory.id, Promise.resolve(c.memory));
    return found;
  });
  const readTimes = remembering(times, (ids: string[]) => store.eventTimes(ids));

  const own: Partial<Store> = {
    async getMemories(ids) {
      return new Map(await readMemories(ids));
    },
    async getMemory(id) {
      return (await readMemories([id]))[0]?.[1] ?? null;
    },
    async hydrate(ids) {
      // in chunk id order, as SQLite answers (a step that walks the answer sees what it saw before)
      return new Map((await readChunks(ids)).sort(([a], [b]) => a - b));
    },
    async eventTimes(ids) {
      return new Map(await readTimes(ids));
    },
    async sessionNeighbours(ids, window) {
      const asked = [...new Set(ids)];
      const missing = asked.filter((id) => (around.get(id)?.window ?? -1) < window);
      if (missing.length) {
        const reading = store.sessionNeighbours(missing, window);
        for (const id of missing) around.set(id, { window, value: reading.then((found) => found.get(id)) });
      }
      const entries = asked.map((id) => around.get(id)!);
      const values = await Promise.all(entries.map((e) => e.value));
      const out = new Map<string, SessionNeighbours>();
      for (const [i, id] of asked.entries()) {
        const n = values[i];
        if (n) out.set(id, entries[i].window === window ? n : { session: n.session, before: n.before.slice(0, window), after: n.after.slice(0, window) });
      }
      return out;
    },
  };
  // every other property and method is the store's, run on the store itself (a method's `this` is the store)
  return new Proxy(store, {
    get(target, name) {
      if (typeof name === "string" && Object.hasOwn(own, name)) return own[name as keyof Store];
      const value = Reflect.get(target, name, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
