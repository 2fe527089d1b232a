/**
 * @module surfaces/reference/http-reference
 * docs/HTTP.md from the OpenAPI document the server serves (http/openapi.ts): every route with its method,
 * parameters, body fields and answers. The document itself is built from the schemas the routes validate with, so
 * this page says what the server accepts.
 */
import { openApiDocument } from "../http/openapi.js";
import { anchor, code, fieldsTable, table, typeOf } from "./markdown.js";

type Parameter = { name?: string; in?: string; required?: boolean; description?: string; schema?: Record<string, unknown>; $ref?: string };
type Operation = {
  summary?: string;
  operationId?: string;
  security?: unknown[];
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, { description: string; headers?: Record<string, { description?: string }> }>;
};

const METHODS = ["get", "post", "patch", "put", "delete"] as const;

/** Every operation of the document as `METHOD path`, in the document's order. */
export function operations(doc = openApiDocument()): { method: string; path: string; op: Operation }[] {
  const paths = doc.paths as Record<string, Record<string, Operation>>;
  return Object.entries(paths).flatMap(([path, methods]) =>
    METHODS.filter((m) => methods[m]).map((method) => ({ method: method.toUpperCase(), path, op: methods[method] })),
  );
}

function parametersTable(parameters: Parameter[]): string {
  // the namespace header, on every /v1 route, is described once at the top of the page
  const own = parameters.filter((p) => !p.$ref);
  if (!own.length) return "";
  return table(
    ["parameter", "in", "type", "meaning"],
    own.map((p) => [code(p.name ?? ""), p.in ?? "", typeOf(p.schema), [p.required ? "required." : "", p.description ?? ""].filter(Boolean).join(" ")]),
  );
}

const isError = (status: string): boolean => Number(status) >= 400;

function section({ method, path, op }: { method: string; path: string; op: Operation }): string {
  const parts = [`## ${method} ${path}`, op.summary ?? ""];
  if (op.security?.length === 0) parts.push("No token needed.");
  const parameters = parametersTable(op.parameters ?? []);
  if (parameters) parts.push(parameters);
  const body = op.requestBody?.content["application/json"]?.schema;
  if (body) parts.push("Body (JSON):", fieldsTable(body as Parameters<typeof fieldsTable>[0]));
  const answers = Object.entries(op.responses).filter(([status]) => !isError(status)).map(([status, r]) => {
    const headers = Object.entries(r.headers ?? {}).map(([name, h]) => ` Header ${code(name)}: ${h.description ?? ""}`);
    return [status, `${r.description}${headers.join("")}`];
  });
  parts.push(table(["status", "answer"], answers));
  const errors = Object.keys(op.responses).filter(isError);
  parts.push(`Errors: ${errors.join(", ")} ([what they mean](#errors)).`);
  return parts.join("\n\n");
}

/** The fields of the error document (components.schemas.Error). */
function errorFields(doc: ReturnType<typeof openApiDocument>): string[] {
  const error = doc.components.schemas.Error as { properties: { error: { properties: Record<string, unknown> } } };
  return Object.keys(error.properties.error.properties);
}

/** Each error status once, with the document's description of it. */
function errorsTable(all: { op: Operation }[]): string {
  const seen = new Map<string, string>();
  for (const { op } of all) for (const [status, r] of Object.entries(op.responses)) if (isError(status) && !seen.has(status)) seen.set(status, r.description);
  return table(["status", "error"], [...seen].sort(([a], [b]) => a.localeCompare(b)));
}

export function httpReference(doc = openApiDocument()): string {
  const all = operations(doc);
  const info = doc.info as { title: string; description: string };
  return [
    "# HTTP reference",
    "Generated from the OpenAPI document (src/surfaces/http/openapi.ts, served at `GET /openapi.json`) by " +
      "`npm run docs:reference`; do not edit by hand. How the pieces fit together: [GUIDE.md](GUIDE.md#http-api).",
    `${info.title}. ${info.description} Start it with \`cascade serve\` (default http://127.0.0.1:7373). ` +
      "With a token (`--token` or `$CASCADE_TOKEN`) every route but those marked \"No token needed\" needs `Authorization: Bearer TOKEN`.",
    table(["route", "does"], all.map((o) => [`[${o.method} ${o.path}](#${anchor(`${o.method} ${o.path}`)})`, o.op.summary ?? ""])),
    "## Errors",
    `Every error answer is \`{"error": {${errorFields(doc).map((f) => `"${f}"`).join(", ")}}}\`; the code is one of the SDK's stable codes.`,
    errorsTable(all),
    "A route asked with a method it does not take (`PUT /v1/search`) answers 405 METHOD_NOT_ALLOWED, with an `Allow` header naming the methods it takes.",
    ...all.map(section),
  ].join("\n\n") + "\n";
}
