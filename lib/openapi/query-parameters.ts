import type { JsonObject, JsonSchema } from './json-schema.ts'

/**
 * How every operation's query is encoded, as the reference client does (`qs.stringify` with these options):
 * `wheres[0][column]=title&wheres[0][value][1]=5&columns[0]=id`. OpenAPI's `deepObject` says one level of
 * brackets; this says the rest, for tools that read it.
 */
export const QUERY_ENCODING: JsonObject = {
  library: 'qs',
  arrayFormat: 'indices',
  strictNullHandling: true,
  encodeValuesOnly: true,
  description:
    'Keys in brackets, list items by index from 0, nested objects by key (wheres[0][value][1]=5); ' +
    'values percent-encoded; ' +
    'a null value is the key without =; an empty list is left out; numbers and booleans as their text. ' +
    'Keys may be snake_case or camelCase (relations_exists or relationsExists), column names too.',
}

const DESCRIPTIONS: Readonly<Record<string, string>> = {
  wheres:
    'Conditions, AND-ed or OR-ed in order and grouped together: wheres[i][column], [operator], [value], [boolean].',
  limit: 'Most rows to return.',
  offset: 'Rows to skip.',
}

/**
 * The OpenAPI parameter objects of an operation's query: one per key, its schema a `$ref` to the component
 * `<schemaPrefix>.<key>`. Lists and objects are `deepObject` (their brackets described by `x-kqp-encoding`),
 * scalars `form`.
 */
export function queryParameters(properties: Readonly<Record<string, JsonSchema>>, schemaPrefix: string): JsonSchema[] {
  return Object.entries(properties).map(([name, schema]) => {
    const nested = schema['type'] === 'array' || schema['type'] === 'object'
    const description =
      DESCRIPTIONS[name] ?? (typeof schema['description'] === 'string' ? schema['description'] : undefined)
    return {
      name,
      in: 'query',
      required: false,
      style: nested ? 'deepObject' : 'form',
      explode: true,
      ...(description === undefined ? {} : { description }),
      schema: { $ref: `#/components/schemas/${schemaPrefix}.${name}` },
      ...(nested ? { example: [], 'x-kqp-encoding': 'indices' } : {}),
    }
  })
}
