import type { ColumnType } from '../../relation-map.ts'

const TYPES: ReadonlyArray<readonly [ColumnType, RegExp]> = [
  ['bigint', /^(bigint|int8)( unsigned)?$|^(bigserial|serial8)$/],
  ['integer', /^(tiny|small|medium)?int(eger)?[24]?( unsigned)?$|^(small)?serial[24]?$/],
  ['decimal', /^(numeric|decimal|dec|fixed)( unsigned)?$/],
  ['number', /^(real|float[48]?|double( precision)?)( unsigned)?$/],
  ['boolean', /^bool(ean)?$/],
  ['json', /^jsonb?$/],
  ['date', /^date$/],
  ['datetime', /^(datetime|timestamp(tz)?|timestamp with(out)? time zone)$/],
  [
    'string',
    /^(((national |n)?(character|char)( varying)?)|n?varchar2?|(tiny|medium|long)?text|clob|citext|uuid|enum|string)$/,
  ],
]

/**
 * The map's column type that holds values of a database type (lower case, without length or precision),
 * or `undefined` when none does (binary, arrays, time of day…). `json` and `jsonb` (and MariaDB's `LONGTEXT`
 * checked by `json_valid`, which its catalog reader names `json`) give `json`.
 *
 * `bigint`/`int8` and `numeric`/`decimal` give the exact `bigint` and `decimal` types (see
 * `RelationMapFromSchemaOptions.exactNumbers`).
 *
 * @example
 * columnTypeOf('character varying') // 'string'
 * columnTypeOf('jsonb') // 'json'
 * columnTypeOf('bytea') // undefined
 */
export function columnTypeOf(dataType: string): ColumnType | undefined {
  return TYPES.find(([, pattern]) => pattern.test(dataType))?.[0]
}

/** A declared type without its length, precision or other arguments, in lower case: `VARCHAR(255)` → `varchar`. */
export function bareTypeName(declared: string): string {
  return declared
    .replace(/\(.*?\)/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase()
}
