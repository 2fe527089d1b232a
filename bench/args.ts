/**
 * @module bench/args
 * The one way bench scripts read a numeric flag: `--name N`, or the fallback when the flag is absent.
 */
export function numberFlag(name: string, fallback: number, argv: readonly string[] = process.argv): number {
  const i = argv.indexOf(name);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
}
