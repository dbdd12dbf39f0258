import { describeValue, relationMapError } from './relation-map-error.ts'

/**
 * `values` (a non-empty list of distinct strings) and `padded` (a `CHAR(n)` column) only on a `string` column.
 *
 * @throws {Error} naming the path and the fix.
 */
export function checkTextOnly(path: string, spec: Readonly<Record<string, unknown>>): void {
  for (const key of ['values', 'padded']) {
    if (spec[key] !== undefined && spec.type !== 'string') {
      const problem = `only applies to string columns, and this one is ${describeValue(spec.type)}`
      throw relationMapError(`${path}.${key}`, problem)
    }
  }
  const { values } = spec
  if (values === undefined) return
  if (!Array.isArray(values) || values.length === 0) {
    const problem = `expected a non-empty list of the column's values, got ${describeValue(values)}`
    throw relationMapError(`${path}.values`, problem)
  }
  const seen = new Set<string>()
  values.forEach((value: unknown, index) => {
    const at = `${path}.values.${index}`
    if (typeof value !== 'string') throw relationMapError(at, `expected a string, got ${describeValue(value)}`)
    if (seen.has(value)) throw relationMapError(at, `'${value}' is listed twice`)
    seen.add(value)
  })
}
