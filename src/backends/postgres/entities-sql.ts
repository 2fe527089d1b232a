/**
 * @module backends/postgres/entities-sql
 * Entities and `mentions` for the PostgreSQL store, with the alias rules of backends/sqlite/entities-sql.ts
 * (exact key; recorded alias; a plural whose singular is an entity; a one-word short form of exactly one
 * person's first name), applied to a whole batch in process (mention-plan.ts) inside its write transaction.
 * "Starts with" is `left(key, n) = k` rather than a collation-dependent range, so it means the same under any
 * database collation.
 */
import type { EntityInfo, EntityKind, ExtractedEntity } from "../../model/entity.js";
import type { SearchFilter } from "../../model/types.js";
import type { EntityReads, MentioningMemory } from "../../ports/entities.js";
import { indexKey } from "./analyze.js";
import type { Queryable } from "./connection.js";
import { toEntityInfo, type EntityRow } from "../rows.js";
import { filterCondition, isEmptyFilter } from "./filter-sql.js";
import { current, MentionPlan, readsFor, scopeKey, type PlanReads, type PlannedEntity } from "./mention-plan.js";
import { Params } from "./params.js";

const ENTITY_COLUMNS = "e.rowid, e.id, e.key, e.name, e.kind, e.mentioned_by";

/** One memory's entities, as a write brings them. */
export interface MemoryEntities {
  rowid: number;
  entities: ExtractedEntity[];
  /** When the memory was recorded (ms): a new entity's creation time. */
  now: number;
  /** The memory's scope: the alias rules resolve within it (mention-plan.ts). */
  user: string | null;
  agent: string | null;
}

/**
 * Records the mentions of a batch of memories, in order (inside the caller's transaction), by the alias rules
 * (mention-plan.ts): one read of every entity, alias and person the batch's keys could meet, the rules applied in
 * process, and the outcome written set-based: a handful of statements for the batch, where one mention at a time
 * took up to ten (0.35 ms a memory of the bench corpus on a server, a third of its ingest).
 */
export async function insertMentionsMany(q: Queryable, ns: string, memories: MemoryEntities[]): Promise<void> {
  const keys = new Set(memories.flatMap((m) => m.entities.map((e) => e.key)));
  if (keys.size === 0) return;
  const plan = await readPlan(q, ns, readsFor(keys));
  for (const m of memories) for (const e of m.entities) plan.mention(m.rowid, e, m.now, scopeKey(m.user, m.agent));
  await writePlan(q, ns, plan);
  await recordForms(q, ns, memories);
}

/**
 * The stored rows the rules may meet, in one statement: entities and aliases under the keys, and the one-word
 * people whose key starts with the prefixes (an index range on the C-collated key, `left` deciding).
 */
async function readPlan(q: Queryable, ns: string, reads: PlanReads): Promise<MentionPlan> {
  const rows = await q.query<{ via: "e" | "a"; key: string; rowid: number; entity_key: string; kind: EntityKind }>(
    `SELECT 'e' AS via, key, rowid, key AS entity_key, kind FROM entities WHERE namespace = $1 AND key = ANY($2::text[])
     UNION ALL
     SELECT 'a', a.key, e.rowid, e.key, e.kind FROM entity_aliases a JOIN entities e ON e.namespace = $1 AND e.rowid = a.entity_rowid
     WHERE a.namespace = $1 AND a.key = ANY($2::text[])
     UNION ALL
     SELECT 'e', e.key, e.rowid, e.key, e.kind FROM unnest($3::text[], $4::text[]) AS s (low, high)
       JOIN entities e ON e.namespace = $1 AND e.key >= s.low AND e.key < s.high AND left(e.key, length(s.low)) = s.low
     WHERE e.kind = 'person' AND strpos(e.key, ' ') = 0`,
    [ns, reads.keys, reads.peopleStarting, reads.peopleStarting.map(keysAfter)],
  );
  // the scopes that mention each of them: the rules resolve an alias only within the memory's own
  const rowids = [...new Set(rows.map((r) => r.rowid))];
  const scopes = new Map<number, Set<string>>();
  if (rowids.length) {
    const mentioned = await q.query<{ rowid: number; user_id: string | null; agent_id: string | null }>(
      `SELECT DISTINCT x.entity_rowid AS rowid, m.user_id, m.agent_id FROM mentions x JOIN memories m ON m.namespace = $1 AND m.rowid = x.memory_rowid
       WHERE x.namespace = $1 AND x.entity_rowid = ANY($2::bigint[])`,
      [ns, rowids],
    );
    for (const r of mentioned) {
      const set = scopes.get(Number(r.rowid)) ?? new Set<string>();
      set.add(scopeKey(r.user_id, r.agent_id));
      scopes.set(Number(r.rowid), set);
    }
  }
  return new MentionPlan(
    rows.map((r) => ({ rowid: r.rowid, key: r.entity_key, kind: r.kind })),
    rows.filter((r) => r.via === "a").map((r) => ({ key: r.key, rowid: r.rowid })),
    scopes,
  );
}

/** A string above every string that starts with `prefix`, in code point order (the key's C collation). */
function keysAfter(prefix: string): string {
  const points = [...prefix];
  const last = points.pop()!.codePointAt(0)!;
  if (last >= 0x10ffff) return `${prefix}\u{10FFFF}`; // never in a name
  return points.join("") + String.fromCodePoint(last === 0xd7ff ? 0xe000 : last + 1);
}

/** The plan's outcome: people made, entities created, short forms absorbed, aliases, then the mentions and counts. */
async function writePlan(q: Queryable, ns: string, plan: MentionPlan): Promise<void> {
  const made = [...new Set(plan.mentions.map(([, e]) => e))].filter((e) => e.becamePerson && !e.into);
  if (made.length) await q.query("UPDATE entities SET kind = 'person' WHERE namespace = $1 AND rowid = ANY($2::bigint[])", [ns, made.map((e) => e.rowid)]);
  const created = plan.created.filter((e) => !e.into);
  if (created.length) {
    const rows = await q.query<{ rowid: number; key: string }>(
      `INSERT INTO entities (namespace, id, key, name, kind, mentioned_by, created_at_ms)
       SELECT $1, id, key, name, kind, 0, at FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[]) WITH ORDINALITY AS x (id, key, name, kind, at, i)
       ORDER BY i RETURNING rowid, key`,
      [ns, created.map((e) => e.id), created.map((e) => e.key), created.map((e) => e.name), created.map((e) => e.kind), created.map((e) => e.createdAt)],
    );
    const rowidOf = new Map(rows.map((r) => [r.key, r.rowid]));
    for (const e of created) e.rowid = rowidOf.get(e.key)!;
  }
  const rowid = (e: PlannedEntity) => current(e).rowid!;
  if (plan.absorbed.length) {
    // a stored short form's mentions and aliases move to the person it now stands for, and it goes
    const moves = [ns, plan.absorbed.map((e) => e.rowid), plan.absorbed.map(rowid)];
    await q.query(
      `INSERT INTO mentions (namespace, memory_rowid, entity_rowid)
       SELECT $1, x.memory_rowid, s.target FROM unnest($2::bigint[], $3::bigint[]) AS s (short, target)
       JOIN mentions x ON x.namespace = $1 AND x.entity_rowid = s.short
       ON CONFLICT DO NOTHING`,
      moves,
    );
    await q.query(
      "UPDATE entity_aliases a SET entity_rowid = s.target FROM unnest($2::bigint[], $3::bigint[]) AS s (short, target) WHERE a.namespace = $1 AND a.entity_rowid = s.short",
      moves,
    );
    await q.query("DELETE FROM entities WHERE namespace = $1 AND rowid = ANY($2::bigint[])", [ns, moves[1]]);
  }
  if (plan.newAliases.size) {
    const aliases = [...plan.newAliases];
    await q.query(
      "INSERT INTO entity_aliases (namespace, key, entity_rowid) SELECT $1, k, e FROM unnest($2::text[], $3::bigint[]) AS x (k, e) ON CONFLICT DO NOTHING",
      [ns, aliases.map(([k]) => k), aliases.map(([, e]) => rowid(e))],
    );
  }
  await linkMentions(q, ns, plan.mentions.map(([m, e]) => [m, rowid(e)]));
  if (plan.recount.size) {
    await q.query(
      `UPDATE entities SET mentioned_by = (SELECT count(*) FROM mentions x WHERE x.namespace = $1 AND x.entity_rowid = entities.rowid)
       WHERE namespace = $1 AND rowid = ANY($2::bigint[])`,
      [ns, [...new Set([...plan.recount].map(rowid))]],
    );
  }
}

/** The form each memory names each entity by (the key and name it wrote): what forgetting keeps names by. */
async function recordForms(q: Queryable, ns: string, memories: MemoryEntities[]): Promise<void> {
  const forms = memories.flatMap((m) => m.entities.map((e) => [m.rowid, e.key, e.name] as const));
  await q.query(
    `INSERT INTO mention_forms (namespace, memory_rowid, key, name)
     SELECT $1, m, k, n FROM unnest($2::bigint[], $3::text[], $4::text[]) AS x (m, k, n)
     ON CONFLICT DO NOTHING`,
    [ns, forms.map((f) => f[0]), forms.map((f) => f[1]), forms.map((f) => f[2])],
  );
}

/** (memory, entity) pairs of known entities: the mentions not yet recorded, and each entity's count raised by its new ones. */
async function linkMentions(q: Queryable, ns: string, pairs: [number, number][]): Promise<void> {
  if (pairs.length === 0) return;
  await q.query(
    `WITH linked AS (
       INSERT INTO mentions (namespace, memory_rowid, entity_rowid)
       SELECT $1, m, e FROM (SELECT DISTINCT m, e FROM unnest($2::bigint[], $3::bigint[]) AS x (m, e)) AS pairs
       ON CONFLICT DO NOTHING RETURNING entity_rowid)
     UPDATE entities SET mentioned_by = mentioned_by + n.added
     FROM (SELECT entity_rowid, count(*)::int AS added FROM linked GROUP BY entity_rowid) AS n
     WHERE entities.namespace = $1 AND entities.rowid = n.entity_rowid`,
    [ns, pairs.map((x) => x[0]), pairs.map((x) => x[1])],
  );
}

/**
 * Before a memory row goes (or takes new content): uncounts its mentions, drops entities only it mentioned (aliases
 * cascade) and its forms. Returns the entities it mentioned that others still mention (see dropUnusedForms).
 */
export async function removeMentions(q: Queryable, ns: string, memoryRowid: number): Promise<number[]> {
  await q.query("DELETE FROM mention_forms WHERE namespace = $1 AND memory_rowid = $2", [ns, memoryRowid]);
  const gone = await q.query<{ entity_rowid: number }>("DELETE FROM mentions WHERE namespace = $1 AND memory_rowid = $2 RETURNING entity_rowid", [ns, memoryRowid]);
  if (gone.length === 0) return [];
  const ids = gone.map((r) => r.entity_rowid);
  await q.query("UPDATE entities SET mentioned_by = mentioned_by - 1 WHERE namespace = $1 AND rowid = ANY($2::bigint[])", [ns, ids]);
  await q.query("DELETE FROM entities WHERE namespace = $1 AND rowid = ANY($2::bigint[]) AND mentioned_by <= 0", [ns, ids]);
  const kept = await q.query<{ rowid: number }>("SELECT rowid FROM entities WHERE namespace = $1 AND rowid = ANY($2::bigint[])", [ns, ids]);
  return kept.map((r) => r.rowid);
}

/** Unused aliases of these (still mentioned) entities go; one whose own name no memory uses takes the most used form (see the SQLite store). */
export async function dropUnusedForms(q: Queryable, ns: string, entityRowids: number[]): Promise<void> {
  if (entityRowids.length === 0) return;
  await q.query(
    `DELETE FROM entity_aliases a WHERE a.namespace = $1 AND a.entity_rowid = ANY($2::bigint[])
       AND NOT EXISTS (SELECT 1 FROM mention_forms f WHERE f.namespace = $1 AND f.key = a.key)`,
    [ns, entityRowids],
  );
  const renames = await q.query<{ rowid: number; key: string; name: string }>(
    `SELECT e.rowid, n.key, n.name FROM entities e
     CROSS JOIN LATERAL (
       SELECT a.key, (SELECT f.name FROM mention_forms f WHERE f.namespace = $1 AND f.key = a.key ORDER BY f.memory_rowid LIMIT 1) AS name
       FROM entity_aliases a WHERE a.namespace = $1 AND a.entity_rowid = e.rowid
       ORDER BY (SELECT count(*) FROM mention_forms f WHERE f.namespace = $1 AND f.key = a.key) DESC, a.key LIMIT 1
     ) n
     WHERE e.namespace = $1 AND e.rowid = ANY($2::bigint[]) AND NOT EXISTS (SELECT 1 FROM mention_forms f WHERE f.namespace = $1 AND f.key = e.key)`,
    [ns, entityRowids],
  );
  for (const r of renames) {
    await q.query("DELETE FROM entity_aliases WHERE namespace = $1 AND key = $2", [ns, r.key]);
    await q.query("UPDATE entities SET key = $3, name = $4 WHERE namespace = $1 AND rowid = $2", [ns, r.rowid, r.key, r.name]);
  }
}

/** Copied mentions (`cascade migrate`) credited with every form of their entity, as stores from before forms are. */
export async function creditAllForms(q: Queryable, ns: string, mentions: { memory: number; entity: number }[]): Promise<void> {
  const params = [ns, mentions.map((m) => m.memory), mentions.map((m) => m.entity)];
  await q.query(
    `INSERT INTO mention_forms (namespace, memory_rowid, key, name)
     SELECT $1, x.m, e.key, e.name FROM unnest($2::bigint[], $3::bigint[]) AS x (m, e) JOIN entities e ON e.namespace = $1 AND e.rowid = x.e
     ON CONFLICT DO NOTHING`,
    params,
  );
  await q.query(
    `INSERT INTO mention_forms (namespace, memory_rowid, key, name)
     SELECT $1, x.m, a.key, a.key FROM unnest($2::bigint[], $3::bigint[]) AS x (m, e) JOIN entity_aliases a ON a.namespace = $1 AND a.entity_rowid = x.e
     ON CONFLICT DO NOTHING`,
    params,
  );
}

/**
 * Entity rows as `e`, each counted over the memories that pass the filter and kept only when one of them mentions
 * it (see ports/entities); without a filter, the count kept with the entity. The counts are read from the
 * filter's memories, so they cost the scope's mentions (see the SQLite store). Callers add conditions after `WHERE`.
 */
function countedEntities(filter: SearchFilter | undefined, p: Params): string {
  if (!filter || isEmptyFilter(filter)) return `SELECT ${ENTITY_COLUMNS} FROM entities e WHERE e.namespace = $1`;
  const counts = `SELECT x.entity_rowid AS entity, count(*)::int AS n FROM memories m
    JOIN mentions x ON x.namespace = m.namespace AND x.memory_rowid = m.rowid WHERE m.namespace = $1 AND ${filterCondition(filter, p)} GROUP BY x.entity_rowid`;
  return `SELECT e.rowid, e.id, e.key, e.name, e.kind, c.n AS mentioned_by FROM (${counts}) c JOIN entities e ON e.namespace = $1 AND e.rowid = c.entity WHERE TRUE`;
}

async function listEntities(q: Queryable, ns: string, query: string | undefined, top: number, filter?: SearchFilter): Promise<EntityInfo[]> {
  const p = new Params(ns);
  const source = countedEntities(filter, p);
  const text = query ? p.add(query.toLowerCase()) : null;
  const matching = text ? ` AND (strpos(e.key, ${text}) > 0 OR e.rowid IN (SELECT entity_rowid FROM entity_aliases WHERE namespace = $1 AND strpos(key, ${text}) > 0))` : "";
  const rows = await q.query<EntityRow>(`SELECT * FROM (${source}${matching}) e ORDER BY e.mentioned_by DESC, e.key LIMIT ${p.add(top)}`, p.values);
  return rows.map(toEntityInfo);
}

async function entitiesByKeys(q: Queryable, ns: string, keys: string[]): Promise<EntityInfo[]> {
  // two index lookups united: with OR between them the planner read every entity of the namespace (0.6 ms a
  // call, 4,000 calls in a bulk load of 100,000 chunks)
  const rows = await q.query<EntityRow>(
    `SELECT ${ENTITY_COLUMNS} FROM entities e WHERE e.namespace = $1 AND e.key = ANY($2::text[])
     UNION
     SELECT ${ENTITY_COLUMNS} FROM entity_aliases a JOIN entities e ON e.namespace = $1 AND e.rowid = a.entity_rowid
     WHERE a.namespace = $1 AND a.key = ANY($2::text[])`,
    [ns, keys],
  );
  return rows.map(toEntityInfo);
}

async function mentionsOf(q: Queryable, ns: string, memoryIds: string[], filter?: SearchFilter): Promise<Map<string, EntityInfo[]>> {
  const p = new Params(ns);
  // without a filter, the table itself (the graph channel reads this on every search)
  const entities = filter && !isEmptyFilter(filter) ? `(${countedEntities(filter, p)})` : "(SELECT * FROM entities WHERE namespace = $1)";
  // The asked memories drive (MATERIALIZED): a namespace the statistics have not seen yet is estimated at one row
  // in every table, and the planner then started from all of its entities, 3 s a call for a 450-memory
  // conversation in a server that also held a 100,000-memory namespace.
  const rows = await q.query<EntityRow & { memory_id: string }>(
    `WITH o AS MATERIALIZED (SELECT rowid, id FROM memories WHERE namespace = $1 AND id = ANY(${p.add(memoryIds)}::text[]))
     SELECT o.id AS memory_id, ${ENTITY_COLUMNS} FROM o
       JOIN mentions y ON y.namespace = $1 AND y.memory_rowid = o.rowid
       JOIN ${entities} e ON e.rowid = y.entity_rowid
     ORDER BY e.key`,
    p.values,
  );
  const out = new Map<string, EntityInfo[]>(memoryIds.map((id) => [id, []]));
  for (const r of rows) out.get(r.memory_id)?.push(toEntityInfo(r));
  return out;
}

async function mentioning(q: Queryable, ns: string, entityIds: string[], limit: number, filter: SearchFilter = {}): Promise<MentioningMemory[]> {
  if (entityIds.length === 0) return [];
  // every entity's list in one statement (a round trip each was most of the graph channel's time on a server)
  const p = new Params(ns);
  const ids = p.add(entityIds);
  const cond = filterCondition(filter, p);
  const rows = await q.query<{ entity: string; memory: string; chunk: number | null }>(
    `SELECT w.entity, r.memory, r.chunk FROM unnest(${ids}::text[]) WITH ORDINALITY AS w (entity, i)
       CROSS JOIN LATERAL (
         SELECT m.id AS memory, (SELECT c.id FROM chunks c WHERE c.namespace = $1 AND c.memory_rowid = m.rowid ORDER BY c.ord LIMIT 1) AS chunk, x.memory_rowid
         FROM mentions x JOIN memories m ON m.namespace = x.namespace AND m.rowid = x.memory_rowid
         WHERE x.namespace = $1 AND x.entity_rowid = (SELECT rowid FROM entities WHERE namespace = $1 AND id = w.entity) AND ${cond}
         ORDER BY x.memory_rowid DESC LIMIT ${p.add(limit)}) AS r
     ORDER BY w.i, r.memory_rowid DESC`,
    p.values,
  );
  return rows.filter((r) => r.chunk !== null).map((r) => ({ entityId: r.entity, memoryId: r.memory, chunkId: r.chunk! }));
}

async function entityById(q: Queryable, ns: string, id: string): Promise<EntityInfo | null> {
  const [row] = await q.query<EntityRow>(`SELECT ${ENTITY_COLUMNS} FROM entities e WHERE e.namespace = $1 AND e.id = $2`, [ns, id]);
  return row ? toEntityInfo(row) : null;
}

/** The distinct indexed words of each memory's chunks, from the `terms` column ingest already wrote, with df. */
async function wordsOf(q: Queryable, ns: string, memoryIds: string[]): Promise<Map<string, { word: string; df: number }[]>> {
  // the words and their counts in one statement (they were two, one after the other, on every search's graph walk)
  const rows = await q.query<{ id: string; word: string; df: number | null }>(
    `SELECT m.id, w.word, t.df FROM memories m JOIN chunks c ON c.namespace = m.namespace AND c.memory_rowid = m.rowid
       CROSS JOIN LATERAL unnest(string_to_array(c.terms, ' ')) WITH ORDINALITY AS w (word, i)
       LEFT JOIN terms t ON t.namespace = $1 AND t.term = w.word
     WHERE m.namespace = $1 AND m.id = ANY($2::text[]) AND w.word <> '' ORDER BY m.id, c.ord, w.i`,
    [ns, memoryIds],
  );
  const byMemory = new Map<string, Map<string, number>>();
  for (const r of rows) {
    let words = byMemory.get(r.id);
    if (!words) byMemory.set(r.id, (words = new Map()));
    if (!words.has(r.word)) words.set(r.word, r.df ?? 0);
  }
  return new Map([...byMemory].map(([id, words]) => [id, [...words].map(([word, df]) => ({ word, df }))]));
}

/** The memories whose body holds each word (its index key), at most `limit` each, that pass the filter. */
async function holdingWords(q: Queryable, ns: string, words: string[], limit: number, filter: SearchFilter = {}): Promise<{ word: string; memoryId: string; chunkId: number }[]> {
  if (words.length === 0) return [];
  // every word's list in one statement (ten round trips a search before)
  const p = new Params(ns);
  const list = p.add(words);
  const keys = p.add(words.map(indexKey));
  const cond = filterCondition(filter, p);
  const rows = await q.query<{ word: string; memory: string; chunk: number }>(
    `SELECT w.word, r.memory, r.chunk FROM unnest(${list}::text[], ${keys}::text[]) WITH ORDINALITY AS w (word, key, i)
       CROSS JOIN LATERAL (
         SELECT m.id AS memory, c.id AS chunk FROM postings x
           JOIN chunks c ON c.namespace = x.namespace AND c.id = x.chunk_id
           JOIN memories m ON m.namespace = c.namespace AND m.rowid = c.memory_rowid
         WHERE x.namespace = $1 AND x.term = w.key AND ${cond} ORDER BY c.id LIMIT ${p.add(limit)}) AS r
     ORDER BY w.i, r.chunk`,
    p.values,
  );
  return rows.map((r) => ({ word: r.word, memoryId: r.memory, chunkId: r.chunk }));
}

/** Doctor's check: each entity's `mentioned_by` equals its mentions, and no entity is left that nothing mentions. */
export async function checkEntityCounts(q: Queryable, ns: string, repair: boolean): Promise<{ name: string; ok: boolean; detail: string; repaired?: boolean }> {
  const [row] = await q.query<{ wrong: number; orphans: number }>(
    `SELECT (SELECT count(*) FROM entities e WHERE e.namespace = $1
               AND e.mentioned_by <> (SELECT count(*) FROM mentions x WHERE x.namespace = $1 AND x.entity_rowid = e.rowid))::int AS wrong,
            (SELECT count(*) FROM entities e WHERE e.namespace = $1
               AND NOT EXISTS (SELECT 1 FROM mentions x WHERE x.namespace = $1 AND x.entity_rowid = e.rowid))::int AS orphans`,
    [ns],
  );
  const check = { name: "entity mention counts", ok: row.wrong + row.orphans === 0, detail: `${row.wrong} entities with a wrong count, ${row.orphans} mentioned by nothing` };
  if (repair && !check.ok) {
    await q.query(
      "UPDATE entities SET mentioned_by = (SELECT count(*) FROM mentions x WHERE x.namespace = $1 AND x.entity_rowid = entities.rowid) WHERE namespace = $1",
      [ns],
    );
    await q.query("DELETE FROM entities WHERE namespace = $1 AND mentioned_by = 0", [ns]);
    return { ...check, repaired: true };
  }
  return check;
}

/** The store's entity reads over its database and namespace. */
export function postgresEntityReads(q: Queryable, ns: string): EntityReads {
  return {
    list: ({ query, top, filter }) => listEntities(q, ns, query, top, filter),
    byKeys: (keys) => entitiesByKeys(q, ns, keys),
    byId: (id) => entityById(q, ns, id),
    mentionsOf: (ids, filter) => mentionsOf(q, ns, ids, filter),
    wordsOf: (ids) => wordsOf(q, ns, ids),
    holdingWords: ({ words, limit, filter }) => holdingWords(q, ns, words, limit, filter),
    mentioning: ({ entityIds, limit, filter }) => mentioning(q, ns, entityIds, limit, filter),
  };
}
