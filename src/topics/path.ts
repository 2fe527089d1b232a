/**
 * @module topics/path
 * Topic paths with PostgreSQL ltree rules: labels of A-Za-z0-9_- (at most 1,000 characters each) joined by
 * dots, at most 65,535 labels. Invalid paths are rejected with the label at fault and the reason.
 */
import { invalidInput } from "../errors.js";

const LABEL = /^[A-Za-z0-9_-]+$/;
export const MAX_LABEL_CHARS = 1000;
export const MAX_LABELS = 65535;

export function validateTopicPath(field: string, path: string): string {
  if (path.length === 0) throw invalidInput(field, "a topic path cannot be empty");
  const labels = path.split(".");
  if (labels.length > MAX_LABELS) throw invalidInput(field, `a topic path has at most ${MAX_LABELS} labels`);
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
