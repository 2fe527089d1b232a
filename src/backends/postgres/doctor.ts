/**
 * @module backends/postgres/doctor
 * Checks that the PostgreSQL store's derived data agree with the tables they come from (postings against the
 * chunk texts, the vocabulary's counts, the kept corpus counts, vector sizes, summary nodes, entity counts),
 * and with `repair` rebuilds them from the tables in one transaction. Foreign keys and page integrity are the
 * server's own business here (constraints are enforced, not advisory as in SQLite), so they are not checked.
 */
import type { DoctorCheck } from "../../ports/store.js";
import type { Database, Queryable } from "./connection.js";
import { analyze } from "./analyze.js";
import { checkEntityCounts } from "./entities-sql.js";
import { counts, curatedText, insertPostings, postingsOf } from "./index-sql.js";

const BODY = "body index (bm25, late interaction)";
const CURATED = "curated index (titles, descriptions, tags)";
const VOCABULARY = "vocabulary counts";
const COUNTS = "corpus counts";
const SUMMARIES = "summary nodes";
const REPAIRABLE = new Set([BODY, CURATED, VOCABULARY, COUNTS, SUMMARIES]);
/** A summary link (`c`) of namespace $1 whose summary or child memory is gone. */
const LINK_TO_NOTHING = `(NOT EXISTS (SELECT 1 FROM memories m WHERE m.namespace = $1 AND m.rowid = c.parent_rowid)
  OR NOT EXISTS (SELECT 1 FROM memories m WHERE m.namespace = $1 AND m.rowid = c.child_rowid))`;

/** A memory belongs in the curated index when it has a title, a description or tags (as the write decides). */
const HAS_CURATED = "(coalesce(m.title, '') <> '' OR coalesce(m.description, '') <> '' OR m.tags <> '[]')";

export async function runDoctor(db: Database, ns: string, dimensions: number | null, repair: boolean): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [];
  const one = async (sql: string, params: unknown[] = [ns]) => (await db.query<Record<string, number>>(sql, params))[0];

  const body = await one(
    // postings left by a chunk that is gone count too: a chunk's postings are deleted by the keys it lists
    `SELECT count(c.id)::int AS chunks, count(*) FILTER (WHERE c.id IS NULL OR coalesce(p.total, 0) <> c.length)::int AS wrong
     FROM (SELECT id, length FROM chunks WHERE namespace = $1) c
       FULL JOIN (SELECT chunk_id, sum(tf) AS total FROM postings WHERE namespace = $1 GROUP BY chunk_id) p ON p.chunk_id = c.id`,
  );
  checks.push({ name: BODY, ok: body.wrong === 0, detail: `${body.chunks} chunks; ${body.wrong} whose postings do not match their text` });

  const curated = await one(
    `SELECT count(*) FILTER (WHERE ${HAS_CURATED})::int AS memories,
            count(*) FILTER (WHERE m.curated <> ${HAS_CURATED} OR coalesce(p.total, 0) <> m.curated_len)::int AS wrong
     FROM memories m LEFT JOIN (SELECT memory_rowid, sum(tf) AS total FROM curated_postings WHERE namespace = $1 GROUP BY memory_rowid) p ON p.memory_rowid = m.rowid
     WHERE m.namespace = $1`,
  );
  checks.push({ name: CURATED, ok: curated.wrong === 0, detail: `${curated.memories} memories; ${curated.wrong} indexed wrongly` });

  const vocabulary = await one(
    `WITH used AS (SELECT w, count(*)::int AS n FROM chunks, unnest(string_to_array(terms, ' ')) AS w WHERE namespace = $1 AND w <> '' GROUP BY w)
     SELECT (SELECT count(*) FROM used)::int AS words,
            (SELECT count(*) FROM terms t LEFT JOIN used u ON u.w = t.term WHERE t.namespace = $1 AND t.df <> coalesce(u.n, 0))::int AS wrong,
            (SELECT count(*) FROM used u WHERE NOT EXISTS (SELECT 1 FROM terms t WHERE t.namespace = $1 AND t.term = u.w))::int AS missing`,
  );
  checks.push({ name: VOCABULARY, ok: vocabulary.wrong + vocabulary.missing === 0, detail: `${vocabulary.words} words in use; ${vocabulary.wrong} with a wrong count, ${vocabulary.missing} missing` });

  const actual = await one(
    `SELECT (SELECT count(*) FROM chunks WHERE namespace = $1)::int AS chunk_count,
            (SELECT coalesce(sum(length), 0) FROM chunks WHERE namespace = $1)::int AS body_tokens,
            (SELECT count(*) FROM memories WHERE namespace = $1 AND curated)::int AS curated_rows,
            (SELECT coalesce(sum(curated_len), 0) FROM memories WHERE namespace = $1)::int AS curated_tokens`,
  );
  const kept = await counts(db, ns);
  const off = (Object.keys(kept) as (keyof typeof kept)[]).filter((k) => kept[k] !== actual[k]);
  checks.push({ name: COUNTS, ok: off.length === 0, detail: off.length ? off.map((k) => `${k}: stored ${kept[k]}, actual ${actual[k]}`).join("; ") : `${actual.chunk_count} chunks` });

  const vectors = dimensions === null ? { bad: 0 } : await one("SELECT count(*)::int AS bad FROM chunks WHERE namespace = $1 AND cardinality(vector::real[]) <> $2", [ns, dimensions]);
  checks.push({ name: "vector sizes", ok: vectors.bad === 0, detail: dimensions === null ? "no embedder recorded yet" : `${vectors.bad} vectors are not ${dimensions}-d (not repairable here: re-add those memories)` });

  const orphans = await one(
    `SELECT count(*)::int AS n FROM memories m WHERE m.namespace = $1 AND m.kind = 'summary'
       AND NOT EXISTS (SELECT 1 FROM summary_nodes n WHERE n.namespace = $1 AND n.memory_rowid = m.rowid)`,
  );
  const dangling = await one(`SELECT count(*)::int AS n FROM summary_children c WHERE c.namespace = $1 AND ${LINK_TO_NOTHING}`);
  checks.push({
    name: SUMMARIES,
    ok: orphans.n === 0 && dangling.n === 0,
    detail:
      `${orphans.n} summaries without a node (repair marks their windows dirty for the next pyramid build)` +
      (dangling.n ? `; ${dangling.n} summary links to a memory that is gone (repair removes them)` : ""),
  });

  checks.push(await checkEntityCounts(db, ns, repair));

  // Repair rebuilds every derived structure from the tables, whichever check failed (as the SQLite doctor does).
  if (repair && checks.some((c) => !c.ok && REPAIRABLE.has(c.name))) {
    await db.transaction((tx) => rebuild(tx, ns));
    for (const c of checks) if (!c.ok && REPAIRABLE.has(c.name)) c.repaired = true;
  }
  return checks;
}

async function rebuild(q: Queryable, ns: string): Promise<void> {
  await q.query(
    `INSERT INTO dirty_windows (namespace, level, start_ms)
     SELECT $1, metadata::jsonb ->> 'level', at_ms FROM memories m WHERE m.namespace = $1 AND m.kind = 'summary'
       AND NOT EXISTS (SELECT 1 FROM summary_nodes n WHERE n.namespace = $1 AND n.memory_rowid = m.rowid)
       AND metadata::jsonb ->> 'level' IS NOT NULL
     ON CONFLICT DO NOTHING`,
    [ns],
  );
  await q.query(
    "DELETE FROM memories m WHERE m.namespace = $1 AND m.kind = 'summary' AND NOT EXISTS (SELECT 1 FROM summary_nodes n WHERE n.namespace = $1 AND n.memory_rowid = m.rowid)",
    [ns],
  );
  // links have no foreign key to cascade them (schema.ts, migration 7)
  await q.query(`DELETE FROM summary_children c WHERE c.namespace = $1 AND ${LINK_TO_NOTHING}`, [ns]);
  await q.query("DELETE FROM postings WHERE namespace = $1", [ns]);
  const chunks = await q.query<{ id: number; indexed_text: string }>("SELECT id, indexed_text FROM chunks WHERE namespace = $1 ORDER BY id", [ns]);
  const postings = chunks.map((c) => ({ chunkId: c.id, ...postingsOf(analyze(c.indexed_text)) }));
  for (let i = 0; i < postings.length; i += 500) await insertPostings(q, ns, postings.slice(i, i + 500));
  await q.query("UPDATE chunks c SET length = x.len, keys = x.keys FROM unnest($2::bigint[], $3::int[], $4::text[]) AS x (id, len, keys) WHERE c.namespace = $1 AND c.id = x.id", [
    ns,
    postings.map((p) => p.chunkId),
    postings.map((p) => p.length),
    postings.map((p) => p.keys),
  ]);

  await q.query("DELETE FROM curated_postings WHERE namespace = $1", [ns]);
  await q.query("UPDATE memories SET curated = false, curated_len = 0 WHERE namespace = $1", [ns]);
  const curated = await q.query<{ rowid: number; title: string | null; description: string | null; tags: string }>(
    `SELECT m.rowid, m.title, m.description, m.tags FROM memories m WHERE m.namespace = $1 AND ${HAS_CURATED}`,
    [ns],
  );
  for (const m of curated) {
    const { length, tf } = analyze(curatedText(m.title, m.description, JSON.parse(m.tags) as string[]));
    if (tf.size) {
      await q.query("INSERT INTO curated_postings (namespace, memory_rowid, term, tf) SELECT $1, $2, t, n FROM unnest($3::text[], $4::int[]) AS x (t, n)", [
        ns, m.rowid, [...tf.keys()], [...tf.values()],
      ]);
    }
    await q.query("UPDATE memories SET curated = true, curated_len = $3 WHERE namespace = $1 AND rowid = $2", [ns, m.rowid, length]);
  }

  await q.query("UPDATE terms SET df = 0 WHERE namespace = $1", [ns]);
  await q.query(
    `INSERT INTO terms (namespace, term, df)
     SELECT $1, w, count(*) FROM chunks, unnest(string_to_array(terms, ' ')) AS w WHERE namespace = $1 AND w <> '' GROUP BY w
     ON CONFLICT (namespace, term) DO UPDATE SET df = excluded.df`,
    [ns],
  );
  await q.query(
    `INSERT INTO meta (namespace, key, value)
     SELECT $1, k, v::text FROM (VALUES
       ('chunk_count', (SELECT count(*) FROM chunks WHERE namespace = $1)),
       ('body_tokens', (SELECT coalesce(sum(length), 0) FROM chunks WHERE namespace = $1)),
       ('curated_rows', (SELECT count(*) FROM memories WHERE namespace = $1 AND curated)),
       ('curated_tokens', (SELECT coalesce(sum(curated_len), 0) FROM memories WHERE namespace = $1))) AS x (k, v)
     ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value`,
    [ns],
  );
}
