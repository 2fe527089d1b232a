/**
 * @module surfaces/reference/markdown
 * The few Markdown pieces the generated reference pages are made of: a table whose cells cannot break it, and a
 * JSON Schema read as one short type ("integer 1–1000", "array of string") with a table of an object's fields.
 */

/** A Markdown table; a `|` or a line break inside a cell would end the cell or the table, so they are escaped. */
export function table(header: string[], rows: string[][]): string {
  const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\s*\n\s*/g, " ");
  const line = (cells: string[]) => `| ${cells.map(cell).join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

/** GitHub's heading anchor: lower case, spaces to dashes, other punctuation dropped. */
export const anchor = (heading: string): string => heading.toLowerCase().replace(/[^a-z0-9 _-]/g, "").replace(/ /g, "-");

export const code = (s: string): string => `\`${s}\``;

type Schema = {
  type?: string | string[];
  enum?: unknown[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  minimum?: number;
  maximum?: number;
  default?: unknown;
  description?: string;
};

/** One short reading of a schema: what a reader must send, not every constraint the validator checks. */
export function typeOf(schema: Schema | undefined): string {
  if (!schema) return "any";
  if (schema.enum) return `one of ${schema.enum.map(String).join(", ")}`;
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return [...new Set(alternatives.map(typeOf))].join(" or ");
  const type = Array.isArray(schema.type) ? schema.type.join(" or ") : schema.type;
  if (type === "array") return `array of ${typeOf(schema.items)}`;
  if ((type === "integer" || type === "number") && schema.minimum !== undefined && schema.maximum !== undefined) {
    return `${type} ${schema.minimum}–${schema.maximum}`;
  }
  return type ?? "any";
}

/** The fields of an object schema, required ones marked, with their descriptions (and defaults when stated). */
export function fieldsTable(schema: Schema): string {
  const required = new Set(schema.required ?? []);
  const rows = Object.entries(schema.properties ?? {}).map(([name, field]) => [
    code(name),
    typeOf(field),
    required.has(name) ? "yes" : "",
    [field.description ?? "", field.default === undefined ? "" : `(default ${JSON.stringify(field.default)})`].filter(Boolean).join(" "),
  ]);
  return rows.length ? table(["field", "type", "required", "meaning"], rows) : "No fields.";
}
