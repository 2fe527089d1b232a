/**
 * @module surfaces/cli/answers
 * What each command prints with `--json` (and the exit codes that mean more than 0 and 2): shown at the end of the
 * command's `--help` and in docs/CLI.md, both from this one table. Keyed by the command's path ("pyramid build").
 * A command without an entry simply shows none; the rest of its help comes from its definition.
 */
import type { Command } from "commander";

export const COMMAND_ANSWERS: Readonly<Record<string, string>> = {
  add: `{"id", "kind", "topic", "at", "edges", "suggestions"}: edges are the supersedes edges the write created (named, or found by revision detection), suggestions the possible revisions left for a person`,
  import: `{"imported", "skipped", "failed": [{"line", "error"}]}; one transaction per batch of 256 lines (the file is read 2,048 lines at a time, and each batch is chunked and embedded while the one before it is written), a broken line never costs the good ones. Exit 0 when every line was stored or skipped, 1 when some lines failed, 2 when every line failed`,
  show: `the memory as list gives it, with "status", "superseded_by" and "supersedes" (a summary's "sentences" marked as in pyramid show); the human output puts "status  SUPERSEDED by …" first, and the scope`,
  update: `the memory as it now reads`,
  forget: `{"id", "forgotten", "summaries_rebuilt"}, with --purge also "purged": {"terms_dropped", "checkpointed"} ("forgotten": false when the id was forgotten already and --purge finished that forget); by --filter, --before or --expired: {"matched", "forgotten", "dry_run", "ids", "summaries_rebuilt"}`,
  purge: `{"summaries_rebuilt", "turn_summaries_removed", "terms_dropped", "checkpointed"}; "checkpointed": false when another process held the log open (purge again later)`,
  search: `{"query", "k", "rrf_k", "hits", "context", "time", "time_note", "channels", "steps", "annotate_ms", "took_ms"}; each hit has "id", "text", "at", "topic", "speaker", "ref", "chunk", "sources_hit", "ranks", "rrf", "score", "adjustments", "status", "superseded_by", "supersedes", "contradicts"; a summary (a hit or in "context") written before the latest memories of its window has "stale": true, and the human output says so`,
  "pyramid build": `{"recomputed": {"day", "week", "month"}, "turns", "written", "removed", "refused", "took_ms"}; "refused": summaries not written because a memory they were read from was forgotten meanwhile (their windows are read again)`,
  "pyramid show": `{"zone", "dirty", "nodes": [{"id", "level", "start", "end", "text", "sentences", "children", "user", "agent"}]}; "user"/"agent": whose node it is (both null: the whole namespace's); a sentence whose source was superseded, or whose statement was revised, is marked [superseded by …]`,
  supersede: `the edge`,
  history: `{"id", "chain", "edges", "revisions"}: the chain oldest to newest, every edge touching it (retracted ones too), the corrections`,
  retract: `the edge, with "retracted_at"`,
  link: `the edge. Unknown ids, a self-link, a second live edge of the same type, a supersedes cycle or an unknown type: exit 2, nothing written`,
  graph: `{"id", "as_of", "known_at", "nodes": [{"id", "type": "memory"|"entity", "depth", "status", ...}], "edges": [{"type", "from", "to", "valid_from", "valid_to", "provenance", "current", ...}], "truncated"}`,
  entities: `{"entities": [{"id", "name", "key", "kind", "memories"}]}`,
  topics: `{"topics": [{"path", "count", "total", "description"}]} (a tree on a terminal)`,
  list: `{"memories": [each with "status", "superseded_by", "supersedes"], "edges": [every edge touching them, with "in_force"], "next_cursor"}; pass next_cursor as --cursor for the next page`,
  stats: `memories (summary nodes counted apart as "summaries"), chunks, vocabulary, bytes, embedder`,
  doctor: `{"ok", "checks": [{"name", "ok", "detail", "repaired"}]}; exit 1 when a check fails`,
  migrate: `{"from", "to", "ok", "took_ms", "namespaces": [{"namespace", "source", "target", "ok"}]} (a table without --json); exit 1 if the counts differ; a non-empty target (other than one an interrupted copy of the same source left, which it resumes), the source itself, a source that is not there or is an unfinished copy: exit 2, nothing written; stopped by SIGINT or SIGTERM: exit 130 or 143, the target marked incomplete until a rerun finishes it`,
  export: `JSONL on stdout, one memory a line with its corrections and edges (import reads it back)`,
};

/** Appends each command's answer to its `--help`. */
export function addAnswersToHelp(program: Command, prefix = ""): void {
  for (const command of program.commands) {
    const path = `${prefix}${command.name()}`;
    const answer = COMMAND_ANSWERS[path];
    if (answer) command.addHelpText("after", `\nAnswers (--json): ${answer}`);
    addAnswersToHelp(command, `${path} `);
  }
}
