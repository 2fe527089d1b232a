/**
 * @module surfaces/http/namespace-header
 * The namespace a request names in its X-Cascade-Namespace header.
 */
import type { Context } from "hono";
import { DEFAULT_NAMESPACE, decodeUtf8 } from "../../index.js";

/**
 * The namespace a request names (X-Cascade-Namespace), or the default. Node hands a header's bytes over one
 * character per byte (Latin-1): read as the UTF-8 a client sends, so that a refused name is echoed as it was
 * written ("café", not "cafÃ©").
 */
export function namespaceHeader(c: Context): string {
  const raw = c.req.header("x-cascade-namespace");
  return raw === undefined ? DEFAULT_NAMESPACE : decodeUtf8("namespace", Buffer.from(raw, "latin1"));
}

