import type { ColumnType } from '../../relation-map.ts'

const TYPES: ReadonlyArray<readonly [ColumnType, RegExp]> = [
  ['integer', /^(tiny|small|medium|big)?int(eger)?[248]?( unsigned)?$|^(small|big)?serial[248]?$/],
  ['number', /^(numeric|decimal|real|float[48]?|double( precision)?|dec|fixed)( unsigned)?$/],
  ['boolean', /^bool(ean)?$/],
  ['date', /^date$/],
  ['datetime', /^(datetime|timestamp(tz)?|timestamp with(out)? time zone)$/],
  ['string', /^(((national |n)?(character|char)( varying)?)|n?varchar2?|(tiny|medium|long)?text|clob|citext|uuid|enum|string)$/],
]

/**
 * The map's column type that holds values of a database type (lower case, without length or precision),
 * or `undefined` when none does (json, binary, arrays, time of day…).
 *
 * @example
 * columnTypeOf('character varying') // 'string'
 * columnTypeOf('jsonb') // undefined
 */
export function columnTypeOf(dataType: string): ColumnType | undefined {
  return TYPES.find(([, pattern]) => pattern.test(dataType))?.[0]
}

/** A declared type without its length, precision or other arguments, in lower case: `VARCHAR(255)` → `varchar`. */
export function bareTypeName(declared: string): string {
  return declared.replace(/\(.*?\)/g, '').replace(/\s+/g, ' ').trim().toLowerCase()
}
