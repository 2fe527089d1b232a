/**
 * @module surfaces/http/guard
 * What a request must satisfy before any route sees it, against the web pages a user happens to visit:
 *
 * - Host names this server. A page on evil.example can make the browser resolve evil.example to 127.0.0.1
 *   (DNS rebinding) and then read the API as "same origin"; its requests still say `Host: evil.example`.
 *   Loopback servers accept only loopback names; a server bound to one address accepts that address; a server
 *   bound to every address (which needs a token anyway) accepts any. `--allow-host` adds names (a proxy's).
 * - Origin, when a browser sends one, is this server's own (the web inspector) or one named with
 *   `--allow-origin`; those get CORS headers, every other origin 403.
 * - A body is JSON, said so: `Content-Type: application/json`. A form or `text/plain` POST is what a page can
 *   send cross-site without asking (no CORS preflight), so any other body is 415. A POST without a body (build
 *   the pyramid, retract an edge) carries nothing to declare and passes.
 * - A browser's `Sec-Fetch-Site: cross-site` (or `same-site`: another port of this host) without an Origin is 403:
 *   an <img> or <script> GET from any page otherwise reaches the API (three of them held /health 6.2 s).
 * - OPTIONS is answered 204 before the token and the namespace are looked at: it tells nothing.
 * - With a token, `Authorization: Bearer TOKEN` (the scheme in any case, RFC 7235), compared in constant time.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import { cors } from "hono/cors";

const PUBLIC_PATHS = new Set(["/health", "/openapi.json"]);

export interface GuardOptions {
  /** The address the server listens on. */
  host?: string;
  token?: string;
  /** Origins (scheme://host[:port]) whose pages may call the API, beside the server's own. */
  allowOrigins?: string[];
  /** Further Host names to accept (a reverse proxy's), beside the bound address. */
  allowHosts?: string[];
}

const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "::1", "[::1]"];
const WILDCARD = new Set(["0.0.0.0", "::", "[::]", ""]);
const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);

type Problem = (c: Context, status: 401 | 403 | 415, code: string, message: string) => Response;

/** The host name of a Host header (without the port; IPv6 keeps its brackets). */
function hostName(header: string): string {
  const h = header.trim().toLowerCase();
  if (h.startsWith("[")) return h.slice(0, h.indexOf("]") + 1);
  const colon = h.lastIndexOf(":");
  return colon >= 0 ? h.slice(0, colon) : h;
}

function allowedHostNames(options: GuardOptions): Set<string> | null {
  const bound = (options.host ?? "127.0.0.1").toLowerCase();
  if (WILDCARD.has(bound)) return null; // every name: a token is required on such a server
  const names = new Set([bound, bound.includes(":") && !bound.startsWith("[") ? `[${bound}]` : bound]);
  if (LOOPBACK_NAMES.includes(bound) || bound.startsWith("127.")) LOOPBACK_NAMES.forEach((n) => names.add(n));
  for (const h of options.allowHosts ?? []) names.add(hostName(h));
  return names;
}

function digest(s: string): Buffer {
  return createHash("sha256").update(s).digest();
}

/** Whether an Authorization header carries the token: scheme case-insensitive, token compared in constant time. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const m = /^\s*bearer\s+(\S+)\s*$/i.exec(header ?? "");
  // hashing first gives both sides one length, so neither the length nor the first differing byte leaks
  return timingSafeEqual(digest(m ? m[1] : ""), digest(token)) && m !== null;
}

function isJson(contentType: string | undefined): boolean {
  const type = (contentType ?? "").split(";")[0].trim().toLowerCase();
  return type === "application/json" || (type.startsWith("application/") && type.endsWith("+json"));
}

/** The guards, in order: host, origin (with CORS for allowed foreign origins), auth, content type. */
export function requestGuards(options: GuardOptions, problem: Problem): MiddlewareHandler[] {
  const hosts = allowedHostNames(options);
  const foreign = new Set((options.allowOrigins ?? []).map((o) => o.replace(/\/+$/, "").toLowerCase()));
  const corsFor = cors({
    origin: (origin) => (foreign.has(origin.toLowerCase()) ? origin : null),
    allowHeaders: ["authorization", "content-type", "x-cascade-namespace"],
    allowMethods: ["GET", "POST", "DELETE", "PATCH", "PUT"],
    maxAge: 600,
  });
  const hostGuard: MiddlewareHandler = async (c, next) => {
    const host = c.req.header("host") ?? "";
    if (hosts && !hosts.has(hostName(host))) {
      return problem(c, 403, "FORBIDDEN_HOST", `Host ${JSON.stringify(host.slice(0, 100))} does not name this server (use --allow-host to accept it)`);
    }
    await next();
  };
  const originGuard: MiddlewareHandler = async (c, next) => {
    const origin = c.req.header("origin");
    if (origin === undefined) {
      // an <img>, <script> or link GET sends no Origin, but a browser says where it comes from
      const site = c.req.header("sec-fetch-site");
      if (site === "cross-site" || site === "same-site") {
        return problem(c, 403, "FORBIDDEN_ORIGIN", `requests from other sites' pages are refused (Sec-Fetch-Site: ${site}; a page named with --allow-origin must send its Origin)`);
      }
      return next();
    }
    const own = `${new URL(c.req.url).protocol}//${c.req.header("host") ?? ""}`.toLowerCase();
    if (origin.toLowerCase() === own) return next();
    if (foreign.has(origin.toLowerCase())) return corsFor(c, next);
    return problem(c, 403, "FORBIDDEN_ORIGIN", `requests from pages at ${JSON.stringify(origin.slice(0, 100))} are refused (use --allow-origin to allow them)`);
  };
  const authGuard: MiddlewareHandler = async (c, next) => {
    // A preflight carries no token: an allowed origin's was answered above (CORS); any other OPTIONS is answered
    // here, the same for every path and namespace, so that without a token it tells nothing (which namespaces exist)
    if (c.req.method === "OPTIONS") return c.body(null, 204, { Allow: "GET, POST, PATCH, DELETE, OPTIONS" });
    // the health check and the API's own description hold no memory: a client reads them before it has a token
    if (options.token && !PUBLIC_PATHS.has(c.req.path) && !bearerMatches(c.req.header("authorization"), options.token)) {
      return problem(c, 401, "UNAUTHORIZED", "missing or wrong bearer token");
    }
    await next();
  };
  const typeGuard: MiddlewareHandler = async (c, next) => {
    const hasBody = Number(c.req.header("content-length") ?? 0) > 0 || c.req.header("transfer-encoding") !== undefined;
    if (BODY_METHODS.has(c.req.method) && hasBody && !isJson(c.req.header("content-type"))) {
      return problem(c, 415, "UNSUPPORTED_MEDIA_TYPE", `body: send JSON with Content-Type: application/json (got ${JSON.stringify(c.req.header("content-type") ?? "none")})`);
    }
    await next();
  };
  return [hostGuard, originGuard, authGuard, typeGuard];
}
