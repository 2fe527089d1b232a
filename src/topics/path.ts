/**
 * @module topics/path
 * Topic paths with PostgreSQL ltree rules: labels of A-Za-z0-9_- joined by dots. Invalid paths are rejected
 * with the label at fault and the reason.
 *
 * Tighter bounds than ltree's (65,535 labels of 1,000 characters): listing the tree writes every ancestor of
 * every path, so its cost is labels × length per topic. One 65,535-label topic made `GET /v1/topics` run out
 * of memory on every call. A taxonomy deeper than 16 levels or a path longer than 500 characters is not a
 * taxonomy people can read.
 */
import { invalidInput } from "../errors.js";

const LABEL = /^[A-Za-z0-9_-]+$/;
export const MAX_LABEL_CHARS = 100;
export const MAX_LABELS = 16;
export const MAX_PATH_CHARS = 500;

export function validateTopicPath(field: string, path: string): string {
  if (typeof path !== "string" || path.length === 0) throw invalidInput(field, "a topic path cannot be empty");
  if (path.length > MAX_PATH_CHARS) throw invalidInput(field, `a topic path has at most ${MAX_PATH_CHARS} characters, got ${path.length}`);
  const labels = path.split(".");
  if (labels.length > MAX_LABELS) throw invalidInput(field, `a topic path has at most ${MAX_LABELS} labels, got ${labels.length}`);
  labels.forEach((label, i) => {
    const where = `label ${i + 1} of ${JSON.stringify(path.length > 80 ? path.slice(0, 77) + "..." : path)}`;
    if (label.length === 0) throw invalidInput(field, `${where} is empty (paths look like a.b.c: no leading, trailing or doubled dots)`);
    if (label.length > MAX_LABEL_CHARS) throw invalidInput(field, `${where} has ${label.length} characters; at most ${MAX_LABEL_CHARS}`);
    if (!LABEL.test(label)) throw invalidInput(field, `${where} (${JSON.stringify(label)}) may hold only letters, digits, _ and -`);
  });
  return path;
}

/** ltree's `a <@ b`: a is b or lies below it. */
export function isDescendant(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}.`);
}

/** ltree's `a @> b`: a is b or lies above it. */
export function isAncestor(a: string, b: string): boolean {
  return isDescendant(b, a);
}
