/**
 * @module backends/postgres/mention-plan
 * The alias rules of backends/sqlite/entities-sql.ts applied in process to a whole batch of mentions: the
 * entities the batch could touch are read once (readsFor says which), every mention is resolved in the batch's
 * order against them and against what the mentions before it did (entities created, aliases recorded, names
 * becoming people, short forms absorbed), and the outcome is written set-based (entities-sql.ts). One at a time,
 * each mention cost up to ten statements, and a statement is a round trip to the server. Like the SQLite store's,
 * every rule but the exact key looks only at entities the memory's own scope mentions (`scopes`).
 *
 * No SQL here: the rules and the batch's state only, so they read as the SQLite store's sequence does.
 */
import { ulid } from "ulid";
import type { EntityKind, ExtractedEntity } from "../../model/entity.js";

/** An entity as the batch sees it: a stored one (rowid) or one the batch creates (rowid once written). */
export interface PlannedEntity {
  rowid?: number;
  readonly stored: boolean;
  readonly id: string;
  readonly key: string;
  readonly name: string;
  kind: EntityKind;
  readonly createdAt: number;
  /** A stored entity this batch made a person. */
  becamePerson?: boolean;
  /** Absorbed (as a person's short form) into this entity: it stands for it from then on. */
  into?: PlannedEntity;
  /** The scopes (scopeKey) whose memories mention it: stored ones as read, and the batch's. */
  readonly scopes: Set<string>;
}

/** A memory's scope as one string: user and agent, an absent one distinct from any name. */
export const scopeKey = (user: string | null, agent: string | null): string => JSON.stringify([user, agent]);

/** A stored entity row as the batch's read returns it. */
export interface StoredEntity {
  rowid: number;
  key: string;
  kind: EntityKind;
}

/** Which rows to read before planning: entities and aliases by key, and one-word people by how their key starts. */
export interface PlanReads {
  keys: string[];
  /** Prefixes (3 characters) of the one-word keys: the people a short form could stand for, or be absorbed by. */
  peopleStarting: string[];
}

const oneWord = (key: string) => !key.includes(" ");
/** The first three characters (code points, as SQL's `left` counts). */
const start3 = (key: string) => [...key].slice(0, 3).join("");
const isPlural = (key: string) => key.length > 3 && key.endsWith("s") && !key.endsWith("ss");
/** Keys a person's name absorbs: its starts of three characters and more, shorter than itself. */
const shortForms = (key: string) => (oneWord(key) && key.length >= 4 ? Array.from({ length: key.length - 3 }, (_, i) => key.slice(0, i + 3)) : []);

/** The rows the rules may consult for these mentions' keys. */
export function readsFor(keys: Iterable<string>): PlanReads {
  const read = new Set<string>();
  const starts = new Set<string>();
  for (const key of keys) {
    read.add(key);
    if (isPlural(key)) read.add(key.slice(0, -1));
    for (const short of shortForms(key)) read.add(short);
    if (oneWord(key) && key.length >= 3) starts.add(start3(key));
  }
  return { keys: [...read], peopleStarting: [...starts] };
}

/** The entity an entity now stands for (itself unless absorbed). */
export function current(e: PlannedEntity): PlannedEntity {
  while (e.into) e = e.into;
  return e;
}

export class MentionPlan {
  private readonly byKey = new Map<string, PlannedEntity>();
  private readonly aliases = new Map<string, PlannedEntity>();
  private readonly people = new Map<string, Set<PlannedEntity>>();
  /** Entities the batch creates, in creation order (absorbed ones included: they are never written). */
  readonly created: PlannedEntity[] = [];
  /** Alias rows the batch adds: key → entity (follow `current`). */
  readonly newAliases = new Map<string, PlannedEntity>();
  /** Stored entities absorbed into a person: their mentions and aliases move, and they go. */
  readonly absorbed: PlannedEntity[] = [];
  /** People that absorbed a short form: their count is recounted from their mentions. */
  readonly recount = new Set<PlannedEntity>();
  /** Every mention in order: (memory, entity then named). */
  readonly mentions: [number, PlannedEntity][] = [];

  /** Starts from the stored entities and aliases the reads returned, and the scopes that mention each entity. */
  constructor(entities: StoredEntity[], aliases: { key: string; rowid: number }[], scopes: Map<number, Set<string>>) {
    const byRowid = new Map<number, PlannedEntity>();
    for (const e of entities) {
      if (byRowid.has(e.rowid)) continue;
      const planned: PlannedEntity = { rowid: e.rowid, stored: true, id: "", key: e.key, name: "", kind: e.kind, createdAt: 0, scopes: new Set(scopes.get(e.rowid)) };
      byRowid.set(e.rowid, planned);
      this.byKey.set(e.key, planned);
      if (e.kind === "person") this.addPerson(planned);
    }
    for (const a of aliases) this.aliases.set(a.key, byRowid.get(a.rowid)!);
  }

  /** Records one mention by the rules, as the SQLite store's insertMentions does for one entity; `scope` is the memory's (scopeKey). */
  mention(memoryRowid: number, e: ExtractedEntity, now: number, scope: string): void {
    let entity = this.resolve(e.key, e.kind, scope);
    let becamePerson = false;
    if (!entity) {
      becamePerson = e.kind === "person";
      entity = { stored: false, id: `n_${ulid()}`, key: e.key, name: e.name, kind: e.kind, createdAt: now, scopes: new Set() };
      this.created.push(entity);
      this.byKey.set(entity.key, entity);
      if (becamePerson) this.addPerson(entity);
    } else {
      if (entity.key !== e.key) this.addAlias(e.key, entity);
      // a name later seen as a speaker is a person (short forms then resolve to it)
      if (e.kind === "person" && entity.kind !== "person") {
        entity.kind = "person";
        if (entity.stored) entity.becamePerson = true;
        this.addPerson(entity);
        becamePerson = true;
      }
    }
    entity.scopes.add(scope);
    if (becamePerson) this.absorbShortForms(entity, e.key, scope);
    this.mentions.push([memoryRowid, entity]);
  }

  /**
   * The entity a key stands for: exact key, recorded alias, singular of a plural, short form of exactly one person;
   * all but the exact key only among entities the scope mentions (the SQLite store's resolveKey says why), a
   * scope's own alias winning over the exact key of another scope's entity.
   */
  private resolve(key: string, kind: EntityKind, scope: string): PlannedEntity | undefined {
    const mentioned = (e: PlannedEntity | undefined) => (e && e.scopes.has(scope) ? e : undefined);
    const exact = this.byKey.get(key);
    if (mentioned(exact)) return exact;
    const alias = this.aliases.get(key);
    if (alias && mentioned(current(alias))) return current(alias);
    if (isPlural(key)) {
      const singular = mentioned(this.byKey.get(key.slice(0, -1)));
      if (singular) return singular;
    }
    if (kind !== "identifier" && key.length >= 3 && oneWord(key)) {
      const people = this.peopleStartingWith(key).filter((p) => p.scopes.has(scope));
      if (people.length === 1) return people[0];
    }
    return exact;
  }

  /** One-word people whose key starts with this one (and is longer). */
  private peopleStartingWith(key: string): PlannedEntity[] {
    return [...(this.people.get(start3(key)) ?? [])].filter((p) => p.key !== key && p.key.startsWith(key));
  }

  /**
   * A person's name arriving after its short form: each entity whose key is a start of the name, that no other
   * person's name of the scope starts with and that only the person's scope mentions becomes the person's alias, its mentions and aliases moved over. Shortest first, as
   * the stores read them (an index in key order).
   */
  private absorbShortForms(person: PlannedEntity, key: string, scope: string): void {
    for (const form of shortForms(key)) {
      const short = this.byKey.get(form);
      if (!short || short === person || [...short.scopes].some((s) => s !== scope)) continue;
      if (this.peopleStartingWith(short.key).filter((p) => p.scopes.has(scope)).length !== 1) continue;
      short.into = person;
      this.byKey.delete(short.key);
      this.people.get(start3(short.key))?.delete(short);
      if (short.stored) this.absorbed.push(short);
      this.addAlias(short.key, person);
      this.recount.add(person);
    }
  }

  /** An alias row unless the key has one (INSERT … ON CONFLICT DO NOTHING). */
  private addAlias(key: string, entity: PlannedEntity): void {
    if (this.aliases.has(key)) return;
    this.aliases.set(key, entity);
    this.newAliases.set(key, entity);
  }

  private addPerson(e: PlannedEntity): void {
    if (!oneWord(e.key)) return;
    const start = start3(e.key);
    let set = this.people.get(start);
    if (!set) this.people.set(start, (set = new Set()));
    set.add(e);
  }
}
