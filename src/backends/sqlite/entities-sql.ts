/**
 * @module backends/sqlite/entities-sql
 * Entities and `mentions` (memory → entity) for the SQLite store. Aliases are merged conservatively at write
 * time, inside the memory's transaction: the exact normalised key; a recorded alias; a plural whose singular is
 * already an entity ("teslas" → "tesla"); and a one-word name that is the start of exactly one person's name
 * ("mel" → "melanie", only while no other person's name starts with it). Every rule but the exact key looks only
 * at entities the memory's own scope (user, agent) mentions (resolveKey). Each entity keeps the number of
 * memories mentioning it (`mentioned_by`), so the graph channel can weigh and skip hubs without counting.
 * Forgetting a memory removes its mentions, and every entity nothing mentions any more, with its aliases. Each
 * memory's forms (the keys it named an entity by, and the names as written) are kept in `mention_forms`, so that
 * a form no memory uses any more goes too: an alias, or the entity's own name, which then becomes a form still in
 * use (otherwise 'Mel' merged into 'Melanie' kept the name 'Melanie' alive after every 'Melanie' was forgotten).
 */
import type Database from "better-sqlite3";
import { ulid } from "ulid";
import type { EntityInfo, ExtractedEntity } from "../../model/entity.js";
import type { SearchFilter } from "../../model/types.js";
import type { EntityReads, MentioningMemory } from "../../ports/entities.js";
import { toEntityInfo, type EntityRow } from "../rows.js";
import { filterCondition, isEmptyFilter } from "./filter-sql.js";
import { quoteFtsTerm } from "./fts-query.js";
import { deeper, liveFilter } from "./expiry-sql.js";
import type { OwnerCache } from "./owner-cache.js";
import { letIoInNow, pacer } from "../../event-loop.js";

type Prepare = (sql: string) => Database.Statement;

/** A memory's scope as the alias rules compare it (user and agent; null matching null). */
interface MentionScope {
  user: string | null;
  agent: string | null;
}

/** Some memory of the scope (@user, @agent) mentions entity `e`. */
const MENTIONED_IN_SCOPE =
  "EXISTS (SELECT 1 FROM mentions x JOIN memories m ON m.rowid = x.memory_rowid WHERE x.entity_rowid = e.rowid AND m.user_id IS @user AND m.agent_id IS @agent)";

function inScope(stmt: Prepare, rowid: number | undefined, scope: MentionScope): boolean {
  return rowid !== undefined && stmt(`SELECT 1 FROM entities e WHERE e.rowid = @rowid AND ${MENTIONED_IN_SCOPE}`).pluck().get({ rowid, ...scope }) !== undefined;
}

/**
 * The entity a normalised key stands for, by the conservative alias rules above; undefined when none. An alias, a
 * plural or a short form resolves only to an entity some memory of the same scope mentions: Alice's "Rosalind" is
 * not what Bob's "Ros" means, and merging them would show Bob's memory under Alice's name (and hers to his
 * filter). The exact key is a name written the same way: it is one entity in every scope (counted per scope when
 * a filter asks), though a scope's own alias for that key wins over it.
 */
export function resolveKey(stmt: Prepare, key: string, kind: string, scope: MentionScope): number | undefined {
  const exact = stmt("SELECT rowid FROM entities WHERE key = ?").pluck().get(key) as number | undefined;
  if (inScope(stmt, exact, scope)) return exact;
  const alias = stmt("SELECT entity_rowid FROM entity_aliases WHERE key = ?").pluck().get(key) as number | undefined;
  if (inScope(stmt, alias, scope)) return alias;
  if (key.length > 3 && key.endsWith("s") && !key.endsWith("ss")) {
    const singular = stmt("SELECT rowid FROM entities WHERE key = ?").pluck().get(key.slice(0, -1)) as number | undefined;
    if (inScope(stmt, singular, scope)) return singular;
  }
  if (kind !== "identifier" && key.length >= 3 && !key.includes(" ")) {
    // a short form of exactly one person's first name, among the people this scope mentions
    const people = stmt(
      `SELECT e.rowid FROM entities e WHERE e.kind = 'person' AND e.key > @key AND e.key < @key || '~' AND instr(e.key, ' ') = 0 AND ${MENTIONED_IN_SCOPE} LIMIT 2`,
    ).pluck().all({ key, ...scope }) as number[];
    if (people.length === 1) return people[0];
  }
  return exact;
}

/** Records a memory's mentions (inside the caller's transaction, the memory's row written), creating entities as needed. */
export function insertMentions(stmt: Prepare, memoryRowid: number, entities: ExtractedEntity[], now: number): void {
  const link = stmt("INSERT OR IGNORE INTO mentions (memory_rowid, entity_rowid) VALUES (?, ?)");
  const bump = stmt("UPDATE entities SET mentioned_by = mentioned_by + 1 WHERE rowid = ?");
  const form = stmt("INSERT OR IGNORE INTO mention_forms (memory_rowid, key, name) VALUES (?, ?, ?)");
  const scope = stmt("SELECT user_id AS user, agent_id AS agent FROM memories WHERE rowid = ?").get(memoryRowid) as MentionScope;
  for (const e of entities) {
    let rowid = resolveKey(stmt, e.key, e.kind, scope);
    let becamePerson = false;
    if (rowid === undefined) {
      becamePerson = e.kind === "person";
      rowid = Number(
        stmt("INSERT INTO entities (id, key, name, kind, mentioned_by, created_at_ms) VALUES (?, ?, ?, ?, 0, ?)").run(`n_${ulid()}`, e.key, e.name, e.kind, now)
          .lastInsertRowid,
      );
    } else {
      const existing = stmt("SELECT key, kind FROM entities WHERE rowid = ?").get(rowid) as { key: string; kind: string };
      if (existing.key !== e.key) stmt("INSERT OR IGNORE INTO entity_aliases (key, entity_rowid) VALUES (?, ?)").run(e.key, rowid);
      // a name later seen as a speaker is a person (short forms then resolve to it)
      if (e.kind === "person" && existing.kind !== "person") {
        stmt("UPDATE entities SET kind = 'person' WHERE rowid = ?").run(rowid);
        becamePerson = true;
      }
    }
    if (link.run(memoryRowid, rowid).changes === 1) bump.run(rowid);
    if (becamePerson) absorbShortForms(stmt, rowid, e.key, scope);
    form.run(memoryRowid, e.key, e.name);
  }
}

/**
 * A person's name arriving after its short form ("Mel" seen before the speaker "Melanie"): each one-word entity
 * that is the start of this person's name and of no other person's of the scope, and that only memories of the
 * person's scope mention, becomes an alias of the person, its mentions moved over. Runs inside the caller's
 * transaction, after the person's mention is linked (so the person counts as mentioned in the scope).
 */
function absorbShortForms(stmt: Prepare, personRowid: number, key: string, scope: MentionScope): void {
  if (key.includes(" ") || key.length < 4) return;
  const prefixes = Array.from({ length: key.length - 3 }, (_, i) => key.slice(0, i + 3));
  const shorts = stmt(
    `SELECT e.rowid, e.key FROM entities e WHERE e.key IN (SELECT value FROM json_each(@prefixes)) AND e.rowid <> @person
       AND NOT EXISTS (SELECT 1 FROM mentions x JOIN memories m ON m.rowid = x.memory_rowid WHERE x.entity_rowid = e.rowid AND NOT (m.user_id IS @user AND m.agent_id IS @agent))`,
  ).all({ prefixes: JSON.stringify(prefixes), person: personRowid, ...scope }) as { rowid: number; key: string }[];
  for (const short of shorts) {
    const people = stmt(
      `SELECT count(*) FROM entities e WHERE e.kind = 'person' AND e.key > @key AND e.key < @key || '~' AND instr(e.key, ' ') = 0 AND ${MENTIONED_IN_SCOPE}`,
    ).pluck().get({ key: short.key, ...scope }) as number;
    if (people !== 1) continue;
    stmt("INSERT OR IGNORE INTO mentions (memory_rowid, entity_rowid) SELECT memory_rowid, ? FROM mentions WHERE entity_rowid = ?").run(personRowid, short.rowid);
    stmt("UPDATE entity_aliases SET entity_rowid = ? WHERE entity_rowid = ?").run(personRowid, short.rowid);
    stmt("DELETE FROM entities WHERE rowid = ?").run(short.rowid);
    stmt("INSERT OR IGNORE INTO entity_aliases (key, entity_rowid) VALUES (?, ?)").run(short.key, personRowid);
    stmt("UPDATE entities SET mentioned_by = (SELECT count(*) FROM mentions WHERE entity_rowid = ?) WHERE rowid = ?").run(personRowid, personRowid);
  }
}

/**
 * Before a memory row goes (or takes new content): uncounts its mentions, drops entities only it mentioned (aliases
 * cascade) and its forms. Returns the entities it mentioned that others still mention (see dropUnusedForms).
 */
export function removeMentions(stmt: Prepare, memoryRowid: number): number[] {
  const entities = stmt("SELECT entity_rowid FROM mentions WHERE memory_rowid = ?").pluck().all(memoryRowid) as number[];
  stmt("DELETE FROM mentions WHERE memory_rowid = ?").run(memoryRowid);
  stmt("DELETE FROM mention_forms WHERE memory_rowid = ?").run(memoryRowid);
  const uncount = stmt("UPDATE entities SET mentioned_by = mentioned_by - 1 WHERE rowid = ?");
  const dropOrphan = stmt("DELETE FROM entities WHERE rowid = ? AND mentioned_by <= 0");
  const kept: number[] = [];
  for (const e of entities) {
    uncount.run(e);
    if (dropOrphan.run(e).changes === 0) kept.push(e);
  }
  return kept;
}

/**
 * These entities keep only the forms some memory uses: unused aliases go, and one whose own name no memory uses any
 * more takes the form most memories use (that form's alias row goes, its key becoming the entity's).
 */
export function dropUnusedForms(stmt: Prepare, entityRowids: number[]): void {
  for (const entityRowid of entityRowids) {
    const own = stmt("SELECT key FROM entities WHERE rowid = ?").pluck().get(entityRowid) as string | undefined;
    if (own === undefined) continue;
    stmt("DELETE FROM entity_aliases WHERE entity_rowid = ? AND NOT EXISTS (SELECT 1 FROM mention_forms f WHERE f.key = entity_aliases.key)").run(entityRowid);
    if (stmt("SELECT 1 FROM mention_forms WHERE key = ? LIMIT 1").pluck().get(own) !== undefined) continue;
    const next = stmt(
      `SELECT a.key, (SELECT f.name FROM mention_forms f WHERE f.key = a.key ORDER BY f.memory_rowid LIMIT 1) AS name
       FROM entity_aliases a WHERE a.entity_rowid = ? ORDER BY (SELECT count(*) FROM mention_forms f WHERE f.key = a.key) DESC, a.key LIMIT 1`,
    ).get(entityRowid) as { key: string; name: string } | undefined;
    if (!next) continue; // a store from before mention_forms whose forms are unknown: nothing is renamed
    stmt("DELETE FROM entity_aliases WHERE key = ?").run(next.key);
    stmt("UPDATE entities SET key = ?, name = ? WHERE rowid = ?").run(next.key, next.name, entityRowid);
  }
}

/** A copied mention (`cascade migrate`) credited with every form of its entity, as stores from before forms are. */
export function creditAllForms(stmt: Prepare, memoryRowid: number, entityRowid: number): void {
  stmt("INSERT OR IGNORE INTO mention_forms (memory_rowid, key, name) SELECT ?, key, name FROM entities WHERE rowid = ?").run(memoryRowid, entityRowid);
  stmt("INSERT OR IGNORE INTO mention_forms (memory_rowid, key, name) SELECT ?, key, key FROM entity_aliases WHERE entity_rowid = ?").run(memoryRowid, entityRowid);
}

const ENTITY_COLUMNS = "e.rowid, e.id, e.key, e.name, e.kind, e.mentioned_by";

/**
 * Entity rows as `e`, each counted over the memories that pass the filter (a scope: `entities --filter user=alice`)
 * and kept only when one of them mentions it; without a filter, the count kept with the entity. The counts are
 * read from the filter's memories (a scope is an index range), so they cost the scope's mentions, not every
 * mention of every entity (0.4 ms against 18 ms for a name mentioned 50,000 times, of which 500 in the scope).
 * Callers add their conditions on `e` after `WHERE`.
 */
function countedEntities(filter: SearchFilter | undefined, params: Record<string, unknown>): string {
  if (!filter || isEmptyFilter(filter)) return `SELECT ${ENTITY_COLUMNS} FROM entities e WHERE 1`;
  const cond = filterCondition(filter);
  Object.assign(params, cond.params);
  const counts = `SELECT x.entity_rowid AS entity, count(*) AS n FROM memories m JOIN mentions x ON x.memory_rowid = m.rowid WHERE ${cond.sql} GROUP BY x.entity_rowid`;
  return `SELECT e.rowid, e.id, e.key, e.name, e.kind, c.n AS mentioned_by FROM (${counts}) c JOIN entities e ON e.rowid = c.entity WHERE 1`;
}

/** Entities by how many memories (that pass the filter) mention them; `query` keeps those whose name or an alias contains it. */
export function listEntities(stmt: Prepare, query: string | undefined, top: number, filter?: SearchFilter): EntityInfo[] {
  const params: Record<string, unknown> = { top };
  const source = countedEntities(filter, params);
  if (query) params.q = query.toLowerCase();
  const matching = query ? " AND (instr(e.key, @q) > 0 OR e.rowid IN (SELECT entity_rowid FROM entity_aliases WHERE instr(key, @q) > 0))" : "";
  const rows = stmt(`SELECT * FROM (${source}${matching}) ORDER BY mentioned_by DESC, key LIMIT @top`).all(params) as EntityRow[];
  return rows.map(toEntityInfo);
}

/** The entities the given normalised keys stand for (exact key or recorded alias). */
export function entitiesByKeys(stmt: Prepare, keys: string[]): EntityInfo[] {
  return (stmt(
    `SELECT ${ENTITY_COLUMNS} FROM entities e WHERE e.key IN (SELECT value FROM json_each(@keys))
       OR e.rowid IN (SELECT entity_rowid FROM entity_aliases WHERE key IN (SELECT value FROM json_each(@keys)))`,
  ).all({ keys: JSON.stringify(keys) }) as EntityRow[]).map(toEntityInfo);
}

/** For each memory, the entities it mentions (counted within the filter). */
export function mentionsOf(stmt: Prepare, memoryIds: string[], filter?: SearchFilter): Map<string, EntityInfo[]> {
  const params: Record<string, unknown> = { ids: JSON.stringify(memoryIds) };
  // without a filter, the table itself (the graph channel reads this on every search)
  const entities = filter && !isEmptyFilter(filter) ? `(${countedEntities(filter, params)})` : "entities";
  const rows = stmt(
    `SELECT o.id AS memory_id, ${ENTITY_COLUMNS} FROM memories o JOIN mentions y ON y.memory_rowid = o.rowid
     JOIN ${entities} e ON e.rowid = y.entity_rowid WHERE o.id IN (SELECT value FROM json_each(@ids)) ORDER BY e.key`,
  ).all(params) as (EntityRow & { memory_id: string })[];
  const out = new Map<string, EntityInfo[]>(memoryIds.map((id) => [id, []]));
  for (const r of rows) out.get(r.memory_id)?.push(toEntityInfo(r));
  return out;
}

/**
 * Entities mentioned by at most this many memories, and by at most FEW_PER_LIMIT times the rows asked for each, are
 * read together, every mention numbered (see `mentioning`): numbering more rows than that costs more than the
 * statement an entity it saves. Under TOGETHER_FROM (a write asking for one mention of each name it meets in a
 * scope), every entity keeps its own statement, as always.
 */
const FEW_MENTIONS = 256;
const FEW_PER_LIMIT = 4;
const TOGETHER_FROM = 16;

type MentionRow = { memoryId: string; chunkId: number | null };

/**
 * The memories mentioning each entity (most recently written first, at most `limit` each) that pass the filter.
 * Entities mentioned by few memories (by their count: FEW_MENTIONS, FEW_PER_LIMIT) are read in one statement that
 * numbers each one's mentions and keeps the first `limit`: a statement an entity cost ~25 µs each, and a search
 * seeded by a megabyte memory walks its ~440 entities. The rest (a speaker in thousands of turns) keep a statement
 * each, which stops at `limit` instead of numbering every mention. The same rows in the same order either way.
 */
export function mentioning(stmt: Prepare, entityIds: string[], limit: number, filter: SearchFilter = {}): MentioningMemory[] {
  const cond = filterCondition(filter);
  const few = Math.min(FEW_MENTIONS, FEW_PER_LIMIT * limit);
  const together = few >= TOGETHER_FROM ? readTogether(stmt, entityIds, limit, few, cond) : null;
  const one = stmt(
    `SELECT m.id AS memoryId, (SELECT c.id FROM chunks c WHERE c.memory_rowid = m.rowid ORDER BY c.ord LIMIT 1) AS chunkId
     FROM mentions x JOIN memories m ON m.rowid = x.memory_rowid
     WHERE x.entity_rowid = (SELECT rowid FROM entities WHERE id = @entity) AND ${cond.sql}
     ORDER BY x.memory_rowid DESC LIMIT @limit`,
  );
  const out: MentioningMemory[] = [];
  entityIds.forEach((entityId, i) => {
    const rows = together && !together.many.has(i) ? (together.byIndex.get(i) ?? []) : (one.all({ ...cond.params, entity: entityId, limit }) as MentionRow[]);
    for (const r of rows) if (r.chunkId !== null) out.push({ entityId, memoryId: r.memoryId, chunkId: r.chunkId });
  });
  return out;
}

/** The first `limit` mentions of each entity mentioned by at most `few` memories, by its index in `entityIds`; and the indexes of the others. */
function readTogether(stmt: Prepare, entityIds: string[], limit: number, few: number, cond: { sql: string; params: Record<string, unknown> }) {
  const ids = JSON.stringify(entityIds);
  const rows = stmt(
    `SELECT r.k, (SELECT id FROM memories WHERE rowid = r.memory_rowid) AS memoryId,
       (SELECT c.id FROM chunks c WHERE c.memory_rowid = r.memory_rowid ORDER BY c.ord LIMIT 1) AS chunkId
     FROM (SELECT j.key AS k, x.memory_rowid, row_number() OVER (PARTITION BY j.key ORDER BY x.memory_rowid DESC) AS n
           FROM json_each(@ids) j JOIN entities e ON e.id = j.value JOIN mentions x ON x.entity_rowid = e.rowid
           JOIN memories m ON m.rowid = x.memory_rowid
           WHERE e.mentioned_by <= @few AND ${cond.sql}) r
     WHERE r.n <= @limit ORDER BY r.k, r.n`,
  ).all({ ...cond.params, ids, limit, few }) as (MentionRow & { k: number })[];
  const byIndex = new Map<number, MentionRow[]>();
  for (const r of rows) {
    let list = byIndex.get(r.k);
    if (!list) byIndex.set(r.k, (list = []));
    list.push(r);
  }
  const many = new Set(
    stmt("SELECT j.key FROM json_each(@ids) j JOIN entities e ON e.id = j.value WHERE e.mentioned_by > @few").pluck().all({ ids, few }) as number[],
  );
  return { byIndex, many };
}

export function entityById(stmt: Prepare, id: string): EntityInfo | undefined {
  const row = stmt(`SELECT ${ENTITY_COLUMNS} FROM entities e WHERE e.id = ?`).get(id) as EntityRow | undefined;
  return row && toEntityInfo(row);
}

/**
 * The distinct indexed words of each memory's chunks, from the `terms` column ingest already wrote, with df. The
 * chunks are read a slice at a time, with a pause for I/O between slices once 10 ms have passed: a seed memory of
 * a megabyte has 1,252 chunks, whose words took ~80 ms in one stretch on a loaded machine. Words keep the order in
 * which the chunks (by ord) first hold them.
 */
export async function wordsOf(stmt: Prepare, memoryIds: string[]): Promise<Map<string, { word: string; df: number }[]>> {
  const slice = stmt(
    `SELECT c.ord, c.terms FROM chunks c WHERE c.memory_rowid = (SELECT rowid FROM memories WHERE id = ?) AND c.ord > ? ORDER BY c.ord LIMIT ${WORDS_SLICE}`,
  ).raw();
  const pause = pacer(undefined, letIoInNow);
  const byMemory = new Map<string, Set<string>>();
  for (const id of memoryIds) {
    let after = -1;
    for (;;) {
      const rows = slice.all(id, after) as [number, string][];
      if (rows.length === 0) break;
      let set = byMemory.get(id);
      if (!set) byMemory.set(id, (set = new Set()));
      for (const [, terms] of rows) for (const t of terms.split(" ")) if (t) set.add(t);
      after = rows[rows.length - 1][0];
      if (rows.length < WORDS_SLICE) break;
      await pause();
    }
    await pause();
  }
  const all = [...new Set([...byMemory.values()].flatMap((s) => [...s]))];
  // json_each drives the join, so each word is one index lookup (an IN (subquery) here scanned the vocabulary)
  const df = new Map(stmt("SELECT t.term, t.df FROM json_each(?) j JOIN terms t ON t.term = j.value").raw().all(JSON.stringify(all)) as [string, number][]);
  return new Map([...byMemory].map(([id, set]) => [id, [...set].map((word) => ({ word, df: df.get(word) ?? 0 }))]));
}

/** Chunks whose words are read in one statement (wordsOf). */
const WORDS_SLICE = 128;

/**
 * The memories whose body holds each word, at most `limit` each, that pass the filter: one FTS5 lookup a word.
 * Under the filter every search has (expiry alone) the index is read on its own and the chunks are named from the
 * owner cache, expired ones dropped (as the channels do, see expiry-sql); joining each row to its chunk and memory
 * cost a tenth of a fused search at 100,000 chunks. The same chunks either way: the first `limit` by rowid.
 */
export function holdingWords(stmt: Prepare, owners: OwnerCache, words: string[], limit: number, filter: SearchFilter = {}): { word: string; memoryId: string; chunkId: number }[] {
  const out: { word: string; memoryId: string; chunkId: number }[] = [];
  const live = liveFilter(stmt, filter);
  if (isEmptyFilter(live.filter)) {
    const q = stmt("SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ? LIMIT ?").pluck();
    for (const word of words) {
      const ids = (q.all(quoteFtsTerm(word), deeper(limit, live)) as number[]).filter((id) => !live.expired?.has(id));
      const named = owners.ownersOf(ids);
      let kept = 0;
      for (const chunkId of ids) {
        const memoryId = named.get(chunkId);
        if (memoryId === undefined || kept === limit) continue;
        out.push({ word, memoryId, chunkId });
        kept++;
      }
    }
    return out;
  }
  const cond = filterCondition(filter);
  const q = stmt(
    `SELECT m.id AS memoryId, c.id AS chunkId FROM chunks_fts f JOIN chunks c ON c.id = f.rowid JOIN memories m ON m.rowid = c.memory_rowid
     WHERE chunks_fts MATCH @match AND ${cond.sql} LIMIT @limit`,
  );
  // a quoted string is FTS5's literal form: the word is data, never syntax
  for (const word of words) for (const r of q.all({ ...cond.params, match: quoteFtsTerm(word), limit }) as { memoryId: string; chunkId: number }[]) out.push({ word, ...r });
  return out;
}

/**
 * Doctor's check: each entity's `mentioned_by` equals its mentions, and no entity is left that nothing mentions.
 * With `repair`, recounts and drops the orphans (run inside the caller's transaction or on its own).
 */
export function checkEntityCounts(stmt: Prepare, repair: boolean): { name: string; ok: boolean; detail: string; repaired?: boolean } {
  const wrong = stmt(
    "SELECT count(*) FROM entities e WHERE e.mentioned_by <> (SELECT count(*) FROM mentions x WHERE x.entity_rowid = e.rowid)",
  ).pluck().get() as number;
  const orphans = stmt("SELECT count(*) FROM entities e WHERE NOT EXISTS (SELECT 1 FROM mentions x WHERE x.entity_rowid = e.rowid)").pluck().get() as number;
  const check = { name: "entity mention counts", ok: wrong + orphans === 0, detail: `${wrong} entities with a wrong count, ${orphans} mentioned by nothing` };
  if (repair && !check.ok) {
    stmt("UPDATE entities SET mentioned_by = (SELECT count(*) FROM mentions x WHERE x.entity_rowid = entities.rowid)").run();
    stmt("DELETE FROM entities WHERE mentioned_by = 0").run();
    return { ...check, repaired: true };
  }
  return check;
}

/** Entities read between two chances to pause (one indexed statement each, a few tenths of a millisecond). */
const MENTIONING_SLICE = 64;

/** The store's entity reads over its statement cache. */
export function sqliteEntityReads(stmt: Prepare, owners: OwnerCache): EntityReads {
  return {
    list: async ({ query, top, filter }) => listEntities(stmt, query, top, filter),
    byKeys: async (keys) => entitiesByKeys(stmt, keys),
    byId: async (id) => entityById(stmt, id) ?? null,
    mentionsOf: async (ids, filter) => mentionsOf(stmt, ids, filter),
    wordsOf: (ids) => wordsOf(stmt, ids),
    holdingWords: async ({ words, limit, filter }) => holdingWords(stmt, owners, words, limit, filter),
    mentioning: async ({ entityIds, limit, filter }) => {
      // one statement an entity: a seed memory of a megabyte mentions hundreds (438 entities, ~20-80 ms in one
      // stretch), so other requests are let in every 10 ms; each statement reads what is committed when it runs
      const out: MentioningMemory[] = [];
      const pause = pacer(undefined, letIoInNow);
      for (let i = 0; i < entityIds.length; i += MENTIONING_SLICE) {
        if (i > 0) await pause();
        out.push(...mentioning(stmt, entityIds.slice(i, i + MENTIONING_SLICE), limit, filter));
      }
      return out;
    },
  };
}
