/** The notation of the REST contract: what a response holds, checked by the contract test and printed in the README. */

export type Shape =
  | { kind: "string" | "number" | "boolean" | "any" | "id" }
  | { kind: "nullable"; of: Shape }
  | { kind: "array"; of: Shape }
  | { kind: "dict"; of: Shape }
  | { kind: "object"; fields: Record<string, Shape> }
  | { kind: "union"; of: Shape[] }
  | { kind: "named"; name: string; of: Shape }
  /** A file, not JSON: the bytes with a Content-Type among `types`. */
  | { kind: "bytes"; types: string };

export const str: Shape = { kind: "string" };
export const num: Shape = { kind: "number" };
export const bool: Shape = { kind: "boolean" };
export const any: Shape = { kind: "any" };
/** `_id`: a non-empty string the client keeps to address the object again. */
export const id: Shape = { kind: "id" };
export const nullable = (of: Shape): Shape => ({ kind: "nullable", of });
export const arr = (of: Shape): Shape => ({ kind: "array", of });
export const dict = (of: Shape): Shape => ({ kind: "dict", of });
export const obj = (fields: Record<string, Shape>): Shape => ({ kind: "object", fields });
export const union = (...of: Shape[]): Shape => ({ kind: "union", of });
export const named = (name: string, of: Shape): Shape => ({ kind: "named", name, of });
export const bytes = (types: string): Shape => ({ kind: "bytes", types });

/** Where `value` departs from `shape`, one line per difference (empty: it conforms). */
export function checkShape(shape: Shape, value: unknown, at = "body"): string[] {
  switch (shape.kind) {
    case "any":
      return value === undefined ? [`${at}: missing`] : [];
    case "bytes":
      return value instanceof Uint8Array && value.length > 0
        ? []
        : [`${at}: ${describe(value)}, not bytes`];
    case "string":
    case "number":
    case "boolean":
      return typeof value === shape.kind ? [] : [`${at}: ${describe(value)}, not ${shape.kind}`];
    case "id":
      return typeof value === "string" && value !== ""
        ? []
        : [`${at}: ${describe(value)}, not an id`];
    case "nullable":
      return value === null ? [] : checkShape(shape.of, value, at);
    case "named":
      return checkShape(shape.of, value, at);
    case "union":
      return shape.of.some((s) => checkShape(s, value, at).length === 0)
        ? []
        : [`${at}: ${describe(value)}, not ${render(shape)}`];
    case "array":
      return Array.isArray(value)
        ? value.flatMap((v, i) => checkShape(shape.of, v, `${at}[${i}]`))
        : [`${at}: ${describe(value)}, not an array`];
    case "dict":
      return isRecord(value)
        ? Object.entries(value).flatMap(([k, v]) => checkShape(shape.of, v, `${at}.${k}`))
        : [`${at}: ${describe(value)}, not an object`];
    case "object":
      return isRecord(value)
        ? Object.entries(shape.fields).flatMap(([k, s]) =>
            k in value ? checkShape(s, value[k], `${at}.${k}`) : [`${at}.${k}: missing`],
          )
        : [`${at}: ${describe(value)}, not an object`];
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (value === undefined) return "missing";
  return typeof value === "object" ? "an object" : typeof value;
}

/** A shape in the README's notation; named shapes print their name (the README defines each below). */
export function render(shape: Shape, expandNamed = false): string {
  switch (shape.kind) {
    case "id":
      return "id";
    case "string":
    case "number":
    case "boolean":
    case "any":
      return shape.kind;
    case "nullable":
      return `${render(shape.of)} | null`;
    case "array":
      return shape.of.kind === "union" || shape.of.kind === "nullable"
        ? `(${render(shape.of)})[]`
        : `${render(shape.of)}[]`;
    case "dict":
      return `{[key]: ${render(shape.of)}}`;
    case "union":
      return shape.of.map((s) => render(s)).join(" | ");
    case "named":
      return expandNamed ? render(shape.of) : shape.name;
    case "bytes":
      return `bytes (${shape.types})`;
    case "object":
      return `{${Object.entries(shape.fields)
        .map(([k, s]) => `${k}: ${render(s)}`)
        .join(", ")}}`;
  }
}

/** Every named shape inside `shape`, each once, in the order first met. */
export function namedShapes(shape: Shape, found: Map<string, Shape>): void {
  switch (shape.kind) {
    case "named":
      if (!found.has(shape.name)) {
        found.set(shape.name, shape);
        namedShapes(shape.of, found);
      }
      return;
    case "nullable":
    case "array":
    case "dict":
      return namedShapes(shape.of, found);
    case "union":
      return shape.of.forEach((s) => namedShapes(s, found));
    case "object":
      return Object.values(shape.fields).forEach((s) => namedShapes(s, found));
    default:
      return;
  }
}
