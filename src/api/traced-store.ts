/**
 * @module api/traced-store
 * The store as the engine sees it, each call a child span `cascade.store.<method>` of whatever span is active
 * (a channel's, the fusion's, a write's). No argument is recorded: they hold texts and scope values.
 *
 * The wrapper inherits from the store (prototype), so every property that is not a method reads through, and
 * each method runs on the store itself (`this` is the store, not the wrapper): calls the store makes to itself
 * are not traced twice. Methods that hand back an iterator (a stream of rows) are not wrapped: their work happens
 * after the call returns.
 */
import type { Store } from "../ports/store.js";
import { inSpanSyncOrAsync } from "../tracing.js";

const STREAMS = new Set(["allVectors"]);

export function methodNames(target: object): string[] {
  const names = new Set<string>();
  for (let proto = target; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const [name, d] of Object.entries(Object.getOwnPropertyDescriptors(proto))) {
      if (name !== "constructor" && typeof d.value === "function") names.add(name); // not getters: reading one runs it
    }
  }
  return [...names];
}

function traced<T extends object>(target: T, prefix: string): T {
  const wrapper = Object.create(target) as Record<string, unknown>;
  for (const name of methodNames(target)) {
    if (STREAMS.has(name)) continue;
    const method = (target as Record<string, (...args: unknown[]) => unknown>)[name];
    const span = `${prefix}.${name}`;
    wrapper[name] = (...args: unknown[]) => inSpanSyncOrAsync(span, () => method.apply(target, args));
  }
  return wrapper as T;
}

/** The store with a span around every call, its entity reads included. */
export function tracedStore(store: Store): Store {
  const wrapper = traced(store, "cascade.store");
  Object.defineProperty(wrapper, "entities", { value: traced(store.entities, "cascade.store.entities"), enumerable: true });
  return wrapper;
}
