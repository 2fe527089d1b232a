/**
 * @module web/client/api
 * The page's only way to the server: fetch against the JSON API with the bearer token (from sessionStorage, so
 * it lasts for this tab) and the namespace header. A non-2xx answer becomes an ApiError carrying the API's own
 * code and message, which the page shows as they are.
 */
const TOKEN_KEY = "cascade.token";
const NAMESPACE_KEY = "cascade.namespace";

export class ApiError extends Error {
  constructor(readonly status: number, readonly code: string, message: string) {
    super(message);
  }
}

export const session = {
  token: () => sessionStorage.getItem(TOKEN_KEY) ?? "",
  setToken: (t: string) => sessionStorage.setItem(TOKEN_KEY, t),
  namespace: () => sessionStorage.getItem(NAMESPACE_KEY) ?? "",
  setNamespace: (n: string) => (n ? sessionStorage.setItem(NAMESPACE_KEY, n) : sessionStorage.removeItem(NAMESPACE_KEY)),
};

export async function api<T = any>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: "application/json" };
  const token = session.token();
  if (token) headers.authorization = `Bearer ${token}`;
  const ns = session.namespace();
  if (ns) headers["x-cascade-namespace"] = ns;
  // every POST carries a JSON body (an empty object when the route needs none): the API accepts only JSON
  if (method === "POST") headers["content-type"] = "application/json";
  let res: Response;
  try {
    res = await fetch(path, { method, headers, body: method === "POST" ? JSON.stringify(body ?? {}) : undefined });
  } catch (err) {
    throw new ApiError(0, "NETWORK", `the server did not answer (${(err as Error).message})`);
  }
  const text = await res.text();
  let json: any = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    // reported below
  }
  if (!res.ok) {
    const e = json?.error;
    throw new ApiError(res.status, e?.code ?? `HTTP_${res.status}`, e?.message ?? (text.slice(0, 300) || res.statusText));
  }
  if (json === null) throw new ApiError(res.status, "BAD_RESPONSE", `${method} ${path}: not JSON`);
  return json as T;
}

/** A query string from the non-empty entries (arrays repeat the key). */
export function qs(params: Record<string, string | string[] | number | undefined | null>): string {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null || v === "") continue;
    for (const one of Array.isArray(v) ? v : [v]) if (one !== "") u.append(k, String(one));
  }
  const s = u.toString();
  return s ? `?${s}` : "";
}
