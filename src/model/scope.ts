/**
 * @module model/scope
 * Whose a memory is: its `user` and its `agent`. Scope is a boundary no inference crosses: revision detection,
 * session neighbours, conversational context and the entity hops of a graph read only ever join memories of one
 * scope. Two memories share a scope when their users are equal and their agents are equal, an absent field
 * equalling only an absent one: a note without a user is not about Alice, so it neither revises nor is revised by
 * hers (docs/GUIDE.md, "Scopes and filters").
 */
export interface Scope {
  user: string | null;
  agent: string | null;
}

export const scopeOf = (m: Scope): Scope => ({ user: m.user, agent: m.agent });

export const sameScope = (a: Scope, b: Scope): boolean => a.user === b.user && a.agent === b.agent;

/** A memory with neither a user nor an agent: the single-tenant store's case. */
export const isUnscoped = (s: Scope): boolean => s.user === null && s.agent === null;
