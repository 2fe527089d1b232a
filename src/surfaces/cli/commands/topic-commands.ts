/**
 * @module surfaces/cli/commands/topic-commands
 * `cascade topics` and `cascade topic create|describe|move|merge|delete`: the taxonomy.
 */
import { type Command } from "commander";
import { countOf } from "../../../index.js";
import { formatTopicTree } from "../format.js";
import { emit } from "../output.js";
import { type CliContext } from "../context.js";

export function registerTopicCommands(program: Command, { withEngine, mode }: CliContext): void {
  program
    .command("topics")
    .description("the topic tree with direct and total counts")
    .option("--under <topic>", "only this topic and the topics below it")
    .action(async (o, cmd: Command) => {
      const t = await withEngine(cmd, (e) => e.topics(o.under));
      emit(mode(cmd), t, () => formatTopicTree(t.topics));
    });

  const topic = program.command("topic").description("manage the taxonomy: create, describe, move, merge and delete topics");
  topic
    .command("create")
    .description("create a topic (its ancestors need not exist); a description helps automatic placement")
    .argument("<path>")
    .option("--description <text>", "what belongs here (placement compares new memories with it)")
    .action(async (path: string, o, cmd: Command) => {
      const t = await withEngine(cmd, (e) => e.createTopic(path, { description: o.description }));
      emit(mode(cmd), t, () => `topic ${t.path}${t.description ? ` — ${t.description}` : ""} (${countOf(t.total, "memory")})`);
    });
  topic
    .command("describe")
    .description("set a topic's description (creating the topic if needed)")
    .argument("<path>")
    .argument("<description>")
    .action(async (path: string, description: string, _o, cmd: Command) => {
      const t = await withEngine(cmd, (e) => e.createTopic(path, { description }));
      emit(mode(cmd), t, () => `topic ${t.path} — ${t.description}`);
    });
  for (const [name, what] of [
    ["move", "move or rename a subtree: every memory and topic at FROM or below it, atomically (TO must be free)"],
    ["merge", "merge FROM and its subtree into TO, which may already hold memories"],
  ] as const) {
    topic
      .command(name)
      .description(what)
      .argument("<from>")
      .argument("<to>")
      .action(async (from: string, to: string, _o, cmd: Command) => {
        const r = await withEngine(cmd, (e) => (name === "move" ? e.moveTopic(from, to) : e.mergeTopic(from, to)));
        emit(mode(cmd), r, () => `${name === "move" ? "moved" : "merged"} ${r.from} → ${r.to} (${countOf(r.memories, "memory")} re-pathed)`);
      });
  }
  topic
    .command("delete")
    .description("delete an empty topic (and the empty topics below it)")
    .argument("<path>")
    .action(async (path: string, _o, cmd: Command) => {
      const r = await withEngine(cmd, (e) => e.deleteTopic(path));
      emit(mode(cmd), r, () => `deleted topic ${r.path}`);
    });
}
