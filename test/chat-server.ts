/**
 * A loopback stand-in for an OpenAI-compatible chat server: records every request and answers with whatever
 * the test sets in `reply` (which may take its time: a slow model, for races).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before } from "node:test";

export interface ChatServer {
  baseURL: string;
  seen: any[];
  reply: (body: any) => { status: number; body: string } | Promise<{ status: number; body: string }>;
}

/** Starts before the file's tests and stops after them. */
export function chatServer(): ChatServer {
  const state: ChatServer = { baseURL: "", seen: [], reply: () => ({ status: 500, body: "" }) };
  const server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", async () => {
      const body = JSON.parse(raw);
      state.seen.push({ url: req.url, body, auth: req.headers.authorization });
      const r = await state.reply(body);
      res.writeHead(r.status, { "content-type": "application/json" });
      res.end(r.body);
    });
  });
  before(async () => {
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    state.baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));
  return state;
}

export const answer = (content: string) => ({ status: 200, body: JSON.stringify({ choices: [{ message: { role: "assistant", content } }] }) });
