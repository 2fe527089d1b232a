/** The SDK is typed: a misspelled field is a compile error (checked by tsc when the suite builds), not a runtime surprise. */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Engine, MemoryInput } from "../src/index.js";

test("remember takes a MemoryInput: unknown fields do not compile", () => {
  const ok: MemoryInput = { text: "x", tags: ["a"], supersedes: "m_1", metadata: { ref: "T-1" } };
  // @ts-expect-error: `txt` is not a field of a memory
  const misspelled: MemoryInput = { txt: "x" };
  // @ts-expect-error: tags are a list
  const wrongType: MemoryInput = { text: "x", tags: "a" };
  type RememberArg = Parameters<Engine["remember"]>[0];
  const same: RememberArg = ok;
  assert.ok(same && misspelled && wrongType);
});
