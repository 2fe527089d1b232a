/**
 * @module surfaces/cli/text-input
 * Where `cascade add` takes its text from: the argument, standard input (`add -`) or a file (`add --file PATH`).
 * A shell passes at most ~128 KB as one argument; a memory may hold 1,000,000 characters. Bytes read are
 * decoded as UTF-8 and refused when they are not (as `import` and the HTTP API refuse them); one line break at
 * the end is dropped, as `$(cat FILE)` drops it, so `add - < note.txt` stores what `add "$(cat note.txt)"` does.
 */
import { createReadStream, statSync } from "node:fs";
import { CascadeError, decodeUtf8, defaultLimits } from "../../index.js";
import { io } from "./io.js";

/** The most bytes read: every character of the longest memory in 4-byte UTF-8, and one byte over to say so. */
const MAX_BYTES = 4 * defaultLimits.maxTextChars;

const refuse = (field: string, message: string) => new CascadeError("INVALID_INPUT", `${field}: ${message}`, { field });

async function readBounded(stream: AsyncIterable<Buffer>, field: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.length;
    if (size > MAX_BYTES) throw refuse(field, `more than ${MAX_BYTES} bytes; a memory holds at most ${defaultLimits.maxTextChars} characters (split long documents first)`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

const withoutFinalNewline = (text: string) => text.replace(/\r?\n$/, "");

/** The text to add: `text` itself, or read from stdin when it is "-", or from `file`. */
export async function addedText(text: string | undefined, file: string | undefined): Promise<string> {
  if (file !== undefined && text !== undefined) throw refuse("--file", "give the text as an argument, - (standard input) or --file, not two of them");
  if (file !== undefined) {
    let isFile = false;
    try {
      isFile = statSync(file).isFile();
    } catch {
      throw refuse("--file", `cannot read ${file}: no such file`);
    }
    if (!isFile) throw refuse("--file", `${file} is not a file`);
    return withoutFinalNewline(decodeUtf8("--file", await readBounded(createReadStream(file), "--file")));
  }
  if (text === undefined) throw refuse("text", "missing: give it as an argument, - to read standard input, or --file PATH");
  if (text !== "-") return text;
  return withoutFinalNewline(decodeUtf8("text", await readBounded(io().stdin, "text")));
}
