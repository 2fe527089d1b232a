/**
 * @module api/topic-actions
 * The topic tree as the SDK shows and changes it: counts per path (direct and with descendants), creating,
 * moving, merging and deleting subtrees. Paths are validated here; the store re-paths all or nothing.
 */
import { defaultLimits } from "../config/defaults.js";
import { invalidInput, notFound } from "../errors.js";
import type { Store } from "../ports/store.js";
import { validateTopicPath } from "../topics/path.js";

/** A topic in the tree: memories directly at it (`count`), at it or below (`total`), and its description. */
export interface TopicJson {
  path: string;
  count: number;
  total: number;
  description: string | null;
}

/**
 * The topic tree with counts: `count` memories directly at a path, `total` including its descendants.
 * Paths with no memory of their own appear when a descendant has some, or when they were created.
 */
export async function topicTree(store: Store, under?: string): Promise<{ topics: TopicJson[] }> {
  if (under !== undefined) validateTopicPath("under", under);
  const direct = await store.topicCounts(under);
  const rows = await store.topicRows(under);
  const nodes = new Map<string, TopicJson>();
  const depth = under ? under.split(".").length : 1;
  const touch = (path: string, count: number) => {
    const labels = path.split(".");
    for (let i = depth; i <= labels.length; i++) {
      const p = labels.slice(0, i).join(".");
      const node = nodes.get(p) ?? { path: p, count: 0, total: 0, description: null };
      node.total += count;
      if (i === labels.length) node.count += count;
      nodes.set(p, node);
    }
  };
  for (const { path, count } of direct) touch(path, count);
  for (const r of rows) {
    touch(r.path, 0);
    nodes.get(r.path)!.description = r.description;
  }
  return { topics: [...nodes.values()].sort((a, b) => (a.path < b.path ? -1 : 1)) };
}

/** Creates a topic (or sets its description). Its ancestors need not exist. */
export async function createTopic(store: Store, path: string, description: string | undefined, now: number): Promise<TopicJson> {
  validateTopicPath("topic", path);
  await store.saveTopic(path, description === undefined ? null : validateDescription(description), now);
  return (await topicTree(store, path)).topics.find((t) => t.path === path)!;
}

/** Moves (merge: false) or merges a subtree: every memory and topic at `from` or below it, atomically. */
export async function repathTopic(store: Store, from: string, to: string, merge: boolean) {
  validateTopicPath("from", from);
  validateTopicPath("to", to);
  if ((await topicTree(store, from)).topics.length === 0) throw notFound("topic", from);
  const memories = await store.moveTopic(from, to, { merge });
  return { from, to, memories };
}

/** Deletes an empty topic (and the empty topics below it). */
export async function deleteTopic(store: Store, path: string): Promise<{ path: string; deleted: true }> {
  validateTopicPath("topic", path);
  if ((await topicTree(store, path)).topics.length === 0) throw notFound("topic", path);
  await store.deleteTopic(path);
  return { path, deleted: true };
}

function validateDescription(description: unknown): string {
  if (typeof description !== "string" || description.trim().length === 0) throw invalidInput("description", "a non-empty string");
  if (description.length > defaultLimits.maxDescriptionChars) throw invalidInput("description", `at most ${defaultLimits.maxDescriptionChars} characters`);
  return description.trim();
}
