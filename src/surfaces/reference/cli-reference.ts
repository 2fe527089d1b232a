/**
 * @module surfaces/reference/cli-reference
 * docs/CLI.md from the commander program itself: every command and subcommand with its usage, description,
 * arguments and options, worded exactly as `--help` words them (commander's own Help formats each term), and what
 * it answers (cli/answers.ts). Nothing here is written by hand, so the page cannot miss a command or a flag.
 */
import type { Command, Help } from "commander";
import { buildProgram } from "../cli/program.js";
import { COMMAND_ANSWERS } from "../cli/answers.js";
import { anchor, code, table } from "./markdown.js";

/** Every command below the program, depth first, in the order `--help` lists them (help itself left out). */
export function commandPaths(program: Command): { path: string; command: Command }[] {
  const walk = (parent: Command, prefix: string): { path: string; command: Command }[] =>
    parent.commands.flatMap((command) => {
      const path = `${prefix}${command.name()}`;
      return [{ path, command }, ...walk(command, `${path} `)];
    });
  return walk(program, "");
}

function optionsTable(help: Help, command: Command): string {
  const options = help.visibleOptions(command).filter((o) => o.long !== "--help");
  return table(["option", "meaning"], options.map((o) => [code(help.optionTerm(o)), help.optionDescription(o)]));
}

function section(help: Help, path: string, command: Command): string {
  const parts = [`## cascade ${path}`, "```\ncascade " + `${path} ${command.usage()}`.trim() + "\n```", help.commandDescription(command)];
  const args = help.visibleArguments(command);
  if (args.length) parts.push(table(["argument", "meaning"], args.map((a) => [code(help.argumentTerm(a)), help.argumentDescription(a)])));
  const subcommands = help.visibleCommands(command).filter((c) => c.name() !== "help");
  if (subcommands.length) parts.push(`Subcommands: ${subcommands.map((c) => `[${c.name()}](#${anchor(`cascade ${path} ${c.name()}`)})`).join(", ")}.`);
  if (help.visibleOptions(command).some((o) => o.long !== "--help")) parts.push(optionsTable(help, command));
  const answer = COMMAND_ANSWERS[path];
  if (answer) parts.push(`Answers (\`--json\`): ${answer}`);
  return parts.join("\n\n");
}

/** The first sentence of what `--help` lists for a command, for the table of commands (the whole description is in its section). */
const firstSentence = (text: string): string => text.split(/(?<=\.)\s+(?=[A-Z])/)[0];

export function cliReference(program: Command = buildProgram()): string {
  const help = program.createHelp();
  const commands = commandPaths(program).filter(({ command }) => command.name() !== "help");
  return [
    "# CLI reference",
    "Generated from the command definitions (src/surfaces/cli) by `npm run docs:reference`; do not edit by hand. " +
      "`cascade COMMAND --help` prints the same. How the pieces fit together: [GUIDE.md](GUIDE.md).",
    `\`\`\`\n${program.name()} ${program.usage()}\n\`\`\``,
    help.commandDescription(program),
    "## Global options\n\nThey go before or after the command: `cascade --db team.db search …`.",
    optionsTable(help, program),
    "## Commands",
    table(["command", "does"], commands.map(({ path, command }) => [`[${path}](#${anchor(`cascade ${path}`)})`, firstSentence(help.subcommandDescription(command))])),
    ...commands.map(({ path, command }) => section(help, path, command)),
  ].join("\n\n") + "\n";
}
