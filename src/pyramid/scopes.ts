/**
 * @module pyramid/scopes
 * Whose summary a node is. One pyramid for the whole namespace, filtered when read, left a user with no week: the
 * week's eight sentences were chosen among everyone's, and none of them was his. So every day, week and month has
 * a node for the whole namespace and one for each user and each agent whose memories it holds, each chosen from
 * that scope's sentences only. A user's node holds the memories with that user (whatever their agent); an agent's
 * node those with that agent (whatever their user). The node's memory carries the user or the agent, and its id
 * names the scope.
 */
import type { Scope } from "../model/scope.js";

/** The whole namespace: both fields absent. */
export const WHOLE: Scope = Object.freeze({ user: null, agent: null });

/** The scopes a window's memories call for: the whole namespace, then each user, then each agent, in first-seen order. */
export function nodeScopesOf(memories: Scope[]): Scope[] {
  const users = [...new Set(memories.map((m) => m.user).filter((u): u is string => u !== null))];
  const agents = [...new Set(memories.map((m) => m.agent).filter((a): a is string => a !== null))];
  return [WHOLE, ...users.map((user) => ({ user, agent: null })), ...agents.map((agent) => ({ user: null, agent }))];
}

/** Whether a raw memory belongs in a node of this scope. */
export function feeds(scope: Scope, m: Scope): boolean {
  if (scope.user !== null) return m.user === scope.user;
  if (scope.agent !== null) return m.agent === scope.agent;
  return true;
}

/** Whether two node scopes are the same one. */
export const sameNodeScope = (a: Scope, b: Scope): boolean => a.user === b.user && a.agent === b.agent;

/** A window's node id in a scope: the whole namespace's keeps the plain id (`p_week_2026-W25`), a user's `p_week_2026-W25~user:bob`. */
export function scopedNodeId(base: string, scope: Scope): string {
  if (scope.user !== null) return `${base}~user:${scope.user}`;
  if (scope.agent !== null) return `${base}~agent:${scope.agent}`;
  return base;
}

/** A scope as people read it: `user bob`, `agent planner`, or `all`. */
export function scopeLabel(scope: Scope): string {
  return scope.user !== null ? `user ${scope.user}` : scope.agent !== null ? `agent ${scope.agent}` : "all";
}
