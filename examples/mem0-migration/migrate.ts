/**
 * Moving from Mem0 to Cascade: a Mem0 `get_all` export (the JSON its API answers) imported with the SDK, users,
 * agents, times and metadata kept; each memory keeps its Mem0 id as `ref`, so a second run skips what it already
 * holds. The CLI does the same in one line: `cascade import mem0-export.json --format mem0`.
 *
 *   node dist/examples/mem0-migration/migrate.js examples/mem0-migration/mem0-export.json [--db FILE] [--now ISO]
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { openMemory, parseInstant, readMem0Export } from "cascade-memory";

const { values, positionals } = parseArgs({ allowPositionals: true, options: { db: { type: "string", default: ":memory:" }, now: { type: "string" } } });
if (positionals.length !== 1) {
  console.error("usage: migrate.js MEM0_EXPORT.json [--db FILE] [--now ISO]");
  process.exit(2);
}
const memory = await openMemory({ path: values.db, ...(values.now && { now: parseInstant("now", values.now) }) });

const { items, failed } = readMem0Export(JSON.parse(readFileSync(positionals[0], "utf8")));
for (const pass of ["first", "second"]) {
  const r = await memory.rememberMany(items.map((i) => i.input), { dedupe: true });
  console.log(`${pass} run: ${r.imported} imported, ${r.skipped} already there`);
}
for (const f of failed) console.log(`item ${f.line} not imported: ${f.error}`);

for (const [user, question] of [["jo", "when should invoices go out?"], ["kim", "what is the user training for?"]]) {
  const [hit] = (await memory.recall(question, { filter: { user }, k: 1 })).hits;
  const m = await memory.show(hit.id);
  console.log(`\n${user}: ${question}\n  "${m.text}" (${hit.ref}, ${m.at}${m.agent ? `, agent ${m.agent}` : ""})`);
}
await memory.close();
