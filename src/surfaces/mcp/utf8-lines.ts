/**
 * @module surfaces/mcp/utf8-lines
 * MCP messages (one a line, as boundedLines cuts them) that are not UTF-8 are answered and dropped. The SDK
 * decodes leniently, so such a message's text was stored with U+FFFD where its bytes were, while `import` and
 * the HTTP API refuse the same bytes.
 */
import { Transform } from "node:stream";
import { decodeUtf8 } from "../../index.js";

/** The JSON-RPC id of a line, read leniently (for answering it), or null. */
function idOf(line: Buffer): string | number | null {
  try {
    const id = (JSON.parse(line.toString("utf8")) as { id?: unknown })?.id;
    return typeof id === "string" || typeof id === "number" ? id : null;
  } catch {
    return null;
  }
}

/** Passes each line on when it is UTF-8; otherwise `refuse` gets the line's id and the one-line reason. */
export function utf8Lines(refuse: (id: string | number | null, message: string) => void): Transform {
  return new Transform({
    transform(line: Buffer, _encoding, done) {
      try {
        decodeUtf8("message", line);
        this.push(line);
      } catch (err) {
        refuse(idOf(line), (err as Error).message);
      }
      done();
    },
  });
}
