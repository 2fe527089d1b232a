/**
 * A writer in its own process, for the multi-process and crash tests (test/concurrency.test.ts,
 * test/crash.test.ts). Without arguments it does nothing, so the test runner can load it harmlessly.
 *
 *   node writer.js write PATH MS TAG   writes for MS milliseconds, then prints {"acknowledged", "errors"}
 *   node writer.js crash PATH SEED     writes until killed, printing "ack ID" after each commit
 *
 * Writes mix single memories, batches of 5 (with revision detection), searches and, in crash mode, pyramid
 * builds, so a kill can land inside any of them.
 */
import { openMemory } from "../../src/index.js";

function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

const WORDS = "pool config deploy cache latency ledger retry queue timeout shard replica index schema vacuum budget".split(" ");

function sentence(r: () => number, tag: string, n: number): string {
  const words = Array.from({ length: 8 + Math.floor(r() * 10) }, () => WORDS[Math.floor(r() * WORDS.length)]);
  return `${tag} note ${n}: ${words.join(" ")}.`;
}

async function write(path: string, ms: number, tag: string): Promise<void> {
  const engine = await openMemory({ path });
  const r = rng(tag.length * 7919 + ms);
  const deadline = Date.now() + ms;
  const errors: Record<string, number> = {};
  let acknowledged = 0;
  let n = 0;
  while (Date.now() < deadline) {
    try {
      const step = n % 4;
      if (step === 3) {
        await engine.recall(`${tag} ${WORDS[n % WORDS.length]}`, { k: 5 });
      } else if (step === 2) {
        const batch = Array.from({ length: 5 }, () => ({ text: sentence(r, tag, ++n), at: "2026-05-01T10:00:00Z", session: tag }));
        acknowledged += (await engine.rememberMany(batch)).imported;
      } else {
        await engine.remember({ text: sentence(r, tag, ++n), topic: `load.${tag}` });
        acknowledged++;
      }
    } catch (err) {
      const code = (err as { code?: string }).code ?? (err as Error).message;
      errors[code] = (errors[code] ?? 0) + 1;
    }
    n++;
  }
  await engine.close();
  process.stdout.write(JSON.stringify({ acknowledged, errors }) + "\n");
}

async function crash(path: string, seed: number): Promise<void> {
  const engine = await openMemory({ path, pyramid: { onIngest: false } });
  const r = rng(seed);
  for (let round = 0; ; round++) {
    const size = 1 + Math.floor(r() * 40);
    const day = 1 + Math.floor(r() * 28);
    const batch = Array.from({ length: size }, (_, i) => ({
      text: sentence(r, `s${seed}`, round * 100 + i),
      at: `2026-04-${String(day).padStart(2, "0")}T${String(i % 24).padStart(2, "0")}:00:00Z`,
      session: `s${round % 3}`,
    }));
    const result = await engine.rememberMany(batch, { batchSize: 16 });
    process.stdout.write(result.ids.map((id) => `ack ${id}\n`).join(""));
    if (round % 5 === 4) await engine.buildPyramid();
  }
}

const [mode, path, a, b] = process.argv.slice(2);
if (mode === "write") await write(path, Number(a), b);
else if (mode === "crash") await crash(path, Number(a));
