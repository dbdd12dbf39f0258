import type { ColumnSpec } from '../relation-map.ts'
import type { Convert } from './convert-value.ts'

/** Whether a column is declared a fixed-length `CHAR(n)` (`{ type: 'string', padded: true }`). */
export const isPadded = (spec: ColumnSpec): boolean =>
  typeof spec === 'object' && spec.type === 'string' && spec.padded === true

/** The text of a `CHAR(n)` value without its trailing spaces (PostgreSQL and SQLite keep them; MySQL strips them). */
export const toUnpadded: Convert = (value) => {
  if (typeof value !== 'string') return typeof value === 'number' || typeof value === 'bigint' ? String(value) : value
  let end = value.length
  while (end > 0 && value.charCodeAt(end - 1) === 32) end--
  return end === value.length ? value : value.slice(0, end)
}
