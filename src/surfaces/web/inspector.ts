/**
 * @module surfaces/web/inspector
 * Serves the web inspector: the HTML shell at `/`, its stylesheet, and the ES modules that tsc compiled from
 * ./client (read once from the package's dist folder). Everything is gzipped once at start-up and sent gzipped
 * to browsers that accept it. These routes hold no data, so they answer without the bearer token; every data
 * request the page makes goes through the API with the token, under the API's own rules.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import type { Context, Hono } from "hono";
import { INSPECTOR_CSS, INSPECTOR_HTML } from "./page.js";

interface Asset {
  type: string;
  body: Buffer;
  gzip: Buffer;
  etag: string;
}

/** Only this server: no CDN, no inline script, no framing by other sites. */
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

function asset(type: string, text: string | Buffer): Asset {
  const body = Buffer.isBuffer(text) ? text : Buffer.from(text, "utf8");
  return { type, body, gzip: gzipSync(body, { level: 9 }), etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"` };
}

/** The compiled client modules beside this file (dist/src/surfaces/web/client/*.js). */
export const CLIENT_DIR = fileURLToPath(new URL("./client/", import.meta.url));

function loadAssets(): Map<string, Asset> {
  const assets = new Map<string, Asset>([["inspector.css", asset("text/css; charset=utf-8", INSPECTOR_CSS)]]);
  if (existsSync(CLIENT_DIR)) {
    for (const name of readdirSync(CLIENT_DIR)) {
      if (name.endsWith(".js")) assets.set(name, asset("text/javascript; charset=utf-8", readFileSync(CLIENT_DIR + name)));
    }
  }
  return assets;
}

function send(c: Context, a: Asset): Response {
  const headers: Record<string, string> = {
    "content-type": a.type,
    "cache-control": "no-cache", // revalidate by ETag: a new version of the package is picked up at once
    etag: a.etag,
    vary: "accept-encoding",
    "x-content-type-options": "nosniff",
  };
  if (c.req.header("if-none-match") === a.etag) return new Response(null, { status: 304, headers });
  const gzip = /\bgzip\b/.test(c.req.header("accept-encoding") ?? "");
  if (gzip) headers["content-encoding"] = "gzip";
  return new Response(new Uint8Array(gzip ? a.gzip : a.body), { status: 200, headers });
}

/** Registers `/` and `/assets/*`; call before the token check (these routes carry no data). */
export function registerInspector(app: Hono): void {
  const assets = loadAssets();
  const page = asset("text/html; charset=utf-8", INSPECTOR_HTML);
  app.get("/", (c) => {
    if (!assets.has("main.js")) {
      return c.json({ error: { code: "INTERNAL", message: `the inspector's scripts are missing from ${CLIENT_DIR}: run npm run build` } }, 500);
    }
    const res = send(c, page);
    res.headers.set("content-security-policy", CSP);
    res.headers.set("referrer-policy", "no-referrer");
    return res;
  });
  app.get("/assets/:name", (c) => {
    const a = assets.get(c.req.param("name"));
    return a ? send(c, a) : c.json({ error: { code: "NOT_FOUND", message: `no inspector asset ${c.req.path}` } }, 404);
  });
}
