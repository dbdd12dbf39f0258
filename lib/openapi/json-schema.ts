/** A JSON value, as a document or schema holds it. */
export type JsonValue = string | number | boolean | null | readonly JsonValue[] | JsonObject

/** A JSON object: a schema, an OpenAPI object, an extension's value. */
export interface JsonObject {
  readonly [key: string]: JsonValue
}

/** A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1). */
export type JsonSchema = JsonObject

/** `{ $ref }` to a schema of `components.schemas`. */
export function schemaRef(name: string): JsonSchema {
  return { $ref: `#/components/schemas/${name}` }
}

/** `schema`, or null too. */
export function orNull(schema: JsonSchema): JsonSchema {
  return { anyOf: [schema, { type: 'null' }] }
}
