// The OpenAPI document's schemas walked for hostile-input tests (http/hostile-input.test.ts): where each
// text value sits in a route's body, and a valid body with one chosen text put at one place.

export interface JsonSchema {
  type?: string;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minLength?: number;
  minimum?: number;
}
export interface Parameter {
  in: 'query' | 'path' | 'header' | 'cookie';
  name: string;
  schema: JsonSchema;
}
export interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}
export type OpenApi = { paths: Record<string, Record<string, Operation>> };

/** Where a value sits in a body: property names and array indexes. */
export type Path = Array<string | number>;

/** The path of every text value a schema takes, one per alternative (a list as text and as an array). */
export function textPaths(schema: JsonSchema, at: Path = []): Path[] {
  if (schema.anyOf) {
    return schema.anyOf.flatMap((option) => textPaths(option, at));
  }
  if (schema.type === 'string' && !schema.enum) {
    return [at];
  }
  if (schema.type === 'array' && schema.items) {
    return textPaths(schema.items, [...at, 0]);
  }
  if (schema.type === 'object' && schema.properties) {
    return Object.entries(schema.properties).flatMap(([name, property]) =>
      textPaths(property, [...at, name]),
    );
  }
  return [];
}

/** A value the schema takes at `path`, shaped so that the text at `path` is `text`. */
export function sampleAt(
  schema: JsonSchema,
  path: Path,
  valid: (name: string) => unknown,
  name: string,
  text?: string,
): unknown {
  const [head, ...rest] = path;
  if (schema.anyOf) {
    const options = schema.anyOf;
    const option =
      head === undefined
        ? (options.find((o) => o.type === 'string' && !o.enum) ?? options[0])
        : (options.find((o) => (typeof head === 'number' ? o.type === 'array' : o.type === 'object')) ??
          options[0]);
    return sampleAt(option ?? {}, path, valid, name, text);
  }
  if (schema.type === 'object') {
    // The required properties, those with a known valid value, and the one the text goes into.
    return Object.fromEntries(
      Object.entries(schema.properties ?? {})
        .filter(([key]) => head === key || schema.required?.includes(key) || valid(key) !== undefined)
        .map(([key, property]) => [
          key,
          sampleAt(property, head === key ? rest : [], valid, key, head === key ? text : undefined),
        ]),
    );
  }
  if (schema.type === 'array') {
    return [sampleAt(schema.items ?? {}, head === 0 ? rest : [], valid, name, head === 0 ? text : undefined)];
  }
  if (text !== undefined && path.length === 0) {
    return text;
  }
  // A name's known value, unless this field's own list of values does not hold it (`session` is
  // `token` or `cookie` at sign-in, `rotating` or `sticky` for a proxy list).
  const known = valid(name);
  if (known !== undefined && (!schema.enum || schema.enum.includes(known))) {
    return known;
  }
  if (schema.enum) {
    return schema.enum[0];
  }
  if (schema.type === 'string') {
    return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
  }
  if (schema.type === 'number' || schema.type === 'integer') {
    return schema.minimum ?? 1;
  }
  if (schema.type === 'boolean') {
    return true;
  }
  return undefined;
}

/** A NUL in an otherwise valid value of the field, so that only the NUL is wrong. */
export function withNul(value: unknown): string {
  const base = typeof value === 'string' && value.length > 0 ? value : 'x';
  return `${base.slice(0, 1)}\u0000${base.slice(1)}`;
}
