/**
 * Role labels are not entities: a chat's "user" and "assistant" say which side spoke, not who. Made people, they
 * were the two most mentioned entities of a chat store and joined every turn to every other at two hops. A real
 * speaker's name stays a person.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { extractEntities } from "../src/entities/extract.js";
import { openMemory } from "../src/index.js";
import { tempDir } from "./helpers.js";

test("the rule-based extractor makes no entity of a role label, and keeps a real speaker", () => {
  for (const role of ["user", "assistant", "User", "Assistant", "system", "AI", "bot"]) {
    const found = extractEntities("Booked a table at Nopa for Saturday at eight.", role);
    assert.ok(!found.some((e) => e.key === role.toLowerCase()), `${role}: ${JSON.stringify(found)}`);
    assert.ok(found.some((e) => e.name === "Nopa"), "the text's own names are still found");
  }
  assert.ok(extractEntities("Booked a table at Nopa.", "Melanie").some((e) => e.name === "Melanie" && e.kind === "person"));
});

test("a chat of user and assistant turns has no user or assistant entity, and a depth-2 graph stays among related turns", async () => {
  const engine = await openMemory({ path: join(tempDir(), "chat.db"), now: Date.parse("2026-11-20T12:00:00Z") });
  try {
    const turns = [
      { role: "user", speaker: "user", text: "Can you book dinner at Nopa on Saturday?" },
      { role: "assistant", speaker: "assistant", text: "I booked Nopa for Saturday at eight." },
      { role: "user", speaker: "user", text: "Remind me to call the plumber about the boiler." },
      { role: "assistant", speaker: "assistant", text: "I set a reminder for the plumber call on Monday." },
      { role: "user", speaker: "user", text: "What's a good gift for my sister Rosa?" },
      { role: "assistant", speaker: "assistant", text: "Rosa might like a pottery class." },
    ];
    const { ids } = await engine.rememberMany(turns.map((t, i) => ({ ...t, session: "s1", at: `2026-11-0${i + 1}T10:00:00Z` })) as never[]);
    const names = (await engine.entities()).entities.map((e: { name: string }) => e.name.toLowerCase());
    assert.ok(!names.includes("user") && !names.includes("assistant"), JSON.stringify(names));
    assert.ok(names.includes("nopa") && names.includes("rosa"), JSON.stringify(names));
    const graph = await engine.graph(ids[0] as string, { depth: 2 });
    const reached = graph.nodes.filter((n: { type?: string; kind?: string; id: string }) => (ids as string[]).includes(n.id)).map((n: { id: string }) => n.id);
    assert.ok(!reached.includes(ids[2] as string), `the plumber turn is not reached through a role label: ${JSON.stringify(reached)}`);
  } finally {
    await engine.close();
  }
});
