import fc from 'fast-check'
import type { JsonSchema } from '../../../lib/openapi.ts'

/** A generated value: what a client puts in its query object before encoding. */
export type Generated = string | number | boolean | null | Generated[] | { [key: string]: Generated }

/** How large generated lists get: a sample of the schema's `maxItems`, not its whole range (see the property spec). */
const MAX_ITEMS = 3

/**
 * A fast-check arbitrary of values of a JSON Schema of the document (the subset the generator writes: `$ref`,
 * `anyOf`, `const`, `enum`, `type` (one or a list), `properties` and `required`, `items` with `minItems` and
 * `maxItems`, `minimum` and `maximum`, `maxLength`, `pattern`, `format` date and date-time). Keywords that
 * only narrow (`not`) are left to the caller, which keeps the values its validator accepts.
 */
export function arbitraryOf(
  schema: JsonSchema,
  schemas: Readonly<Record<string, JsonSchema>>,
): fc.Arbitrary<Generated> {
  const ref = schema['$ref']
  if (typeof ref === 'string') {
    const target = schemas[ref.replace('#/components/schemas/', '')]
    if (target === undefined) throw new Error(`unresolved ${ref}`)
    return arbitraryOf(target, schemas)
  }
  if ('const' in schema) return fc.constant(schema['const'] as Generated)
  if (Array.isArray(schema['enum'])) return fc.constantFrom(...(schema['enum'] as Generated[]))
  if (Array.isArray(schema['anyOf']))
    return fc.oneof(...(schema['anyOf'] as JsonSchema[]).map((each) => arbitraryOf(each, schemas)))
  const type = schema['type']
  if (Array.isArray(type))
    return fc.oneof(...(type as string[]).map((each) => arbitraryOf({ ...schema, type: each }, schemas)))
  switch (type) {
    case 'null':
      return fc.constant(null)
    case 'boolean':
      return fc.boolean()
    case 'integer':
      return fc.integer({ min: Number(schema['minimum'] ?? -1e9), max: Number(schema['maximum'] ?? 1e9) })
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true })
    case 'string':
      return stringOf(schema)
    case 'array': {
      const maxItems = Math.min(Number(schema['maxItems'] ?? MAX_ITEMS), MAX_ITEMS)
      const minItems = Number(schema['minItems'] ?? 0)
      if (schema['items'] === undefined) return fc.constant([])
      return fc.array(arbitraryOf(schema['items'] as JsonSchema, schemas), {
        minLength: minItems,
        maxLength: Math.max(minItems, maxItems),
      })
    }
    case 'object': {
      const properties = (schema['properties'] ?? {}) as Record<string, JsonSchema>
      const record = Object.fromEntries(
        Object.entries(properties).map(([key, each]) => [key, arbitraryOf(each, schemas)]),
      )
      return fc.record(record, { requiredKeys: (schema['required'] ?? []) as string[] }) as fc.Arbitrary<Generated>
    }
    default:
      throw new Error(`no arbitrary for ${JSON.stringify(schema).slice(0, 200)}`)
  }
}

const MIN_DATE = new Date('0001-01-01T00:00:00.000Z')
const MAX_DATE = new Date('9999-12-31T23:59:59.999Z')

function stringOf(schema: JsonSchema): fc.Arbitrary<string> {
  const maxLength = Math.min(Number(schema['maxLength'] ?? 30), 30)
  const date = fc.date({ min: MIN_DATE, max: MAX_DATE, noInvalidDate: true })
  if (schema['format'] === 'date') return date.map((value) => value.toISOString().slice(0, 10))
  if (schema['format'] === 'date-time') return date.map((value) => value.toISOString())
  const pattern = schema['pattern']
  if (typeof pattern === 'string')
    return fc
      .stringMatching(new RegExp(pattern))
      .filter((text) => text.length <= Number(schema['maxLength'] ?? Infinity))
  return fc.string({ maxLength, unit: 'grapheme' })
}
