/**
 * @module surfaces/http/method-not-allowed
 * A path the API serves, asked with a method it does not take (`PUT /v1/search`): 405 with an `Allow` header
 * naming the methods it does take (RFC 9110), instead of a 404 that says the route does not exist.
 */
import type { Hono } from "hono";

/** A route's path pattern as a regular expression: `:id` one segment, `:op{memories:batch}` its own pattern. */
function pathPattern(path: string): RegExp {
  const source = path
    .split(/(:[A-Za-z_]+(?:\{[^}]*\})?|\*)/)
    .map((part) => {
      if (part === "*") return ".*";
      const param = /^:[A-Za-z_]+(?:\{([^}]*)\})?$/.exec(part);
      if (param) return param[1] !== undefined ? `(?:${param[1]})` : "[^/]+";
      return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("");
  return new RegExp(`^${source}$`);
}

/** The methods each path of `app` takes (read once, after every route is registered); a GET also answers HEAD. */
export function allowedMethods(app: Hono): (path: string) => string[] {
  let routes: { method: string; pattern: RegExp }[] | undefined;
  return (path) => {
    // middleware is registered for every method ("ALL"): only the routes themselves say what a path takes
    routes ??= app.routes.filter((r) => r.method !== "ALL").map((r) => ({ method: r.method, pattern: pathPattern(r.path) }));
    const methods = new Set(routes.filter((r) => r.pattern.test(path)).map((r) => r.method));
    if (methods.has("GET")) methods.add("HEAD");
    return [...methods].sort();
  };
}
