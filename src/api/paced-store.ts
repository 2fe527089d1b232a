/**
 * @module api/paced-store
 * The store as a search sees it. A search is dozens of store calls, each answered on the one thread (better-sqlite3
 * is synchronous; PGlite runs in process too), and an `await` of an answered call resumes before any I/O is read:
 * a search on a store holding a megabyte memory held a server's thread 100-300 ms in one stretch (its graph walk
 * reads the entities and words of every seed), and every /health and every other request waited for all of it.
 * Here, once a search has worked PAUSE_AFTER_MS without a pause (event-loop.ts), the answer of its next store call
 * waits one turn of the event loop, so other requests are answered in between.
 *
 * Results are unchanged: the answer is the call's own, only delayed. A write may commit between two calls of a
 * search, as one of the store's write thread or another process already may: each of a search's reads sees what
 * was committed when it ran, and the search names its chunks after reading them.
 */
import type { Store } from "../ports/store.js";
import { letIoInNow, pacer } from "../event-loop.js";
import { methodNames } from "./traced-store.js";

function paced<T extends object>(target: T, pause: () => Promise<void> | undefined): T {
  const wrapper = Object.create(target) as Record<string, unknown>;
  for (const name of methodNames(target)) {
    const method = (target as Record<string, (...args: unknown[]) => unknown>)[name];
    wrapper[name] = (...args: unknown[]) => {
      const out = method.apply(target, args);
      // a call that answers at once (a getter-like method, an iterator) is left as it is
      if (!(out instanceof Promise)) return out;
      // measured after the call: its synchronous part (a whole SQLite read) has run by now
      const wait = pause();
      return wait ? out.then((value) => wait.then(() => value)) : out;
    };
  }
  return wrapper as T;
}

/** The store with each call's answer held for one event-loop turn whenever 10 ms of work have passed without one. */
export function pacedStore(store: Store): Store {
  // one pacer for the store and its entity reads: they are one search's work
  const pause = pacer(undefined, letIoInNow);
  const wrapper = paced(store, pause);
  Object.defineProperty(wrapper, "entities", { value: paced(store.entities, pause), enumerable: true });
  return wrapper;
}
