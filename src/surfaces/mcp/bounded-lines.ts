/**
 * @module surfaces/mcp/bounded-lines
 * Standard input cut into whole lines of at most `maxBytes`, for the MCP SDK's stdio transport. The SDK keeps
 * at most 10 MB of unread input and, past it, closes the transport: the server ended with exit 0 on one long
 * line. Here a longer line is dropped as it streams (never held whole) and reported, and the next line is read.
 */
import { Transform } from "node:stream";

const NEWLINE = 0x0a;

export function boundedLines(maxBytes: number, onOversize: (bytes: number) => void): Transform {
  let pending: Buffer[] = [];
  let size = 0;
  let dropping = false; // the current line is too long: its bytes are counted, not kept
  const keep = (part: Buffer) => {
    size += part.length;
    if (dropping) return;
    if (size > maxBytes) {
      dropping = true;
      pending = [];
    } else pending.push(part);
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      let start = 0;
      for (let nl = chunk.indexOf(NEWLINE); nl >= 0; nl = chunk.indexOf(NEWLINE, start)) {
        keep(chunk.subarray(start, nl + 1));
        if (dropping) onOversize(size);
        else this.push(Buffer.concat(pending));
        [pending, size, dropping, start] = [[], 0, false, nl + 1];
      }
      if (start < chunk.length) keep(Buffer.from(chunk.subarray(start)));
      done();
    },
    flush(done) {
      if (dropping) onOversize(size);
      else if (size > 0) this.push(Buffer.concat(pending));
      done();
    },
  });
}
