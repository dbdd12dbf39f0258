import type { Knex } from 'knex'
import { dialectOf } from '../dialect/dialect-of.ts'
import { databaseColumn } from '../map/columns.ts'
import type { DatetimeStorage, RelationMap } from '../relation-map.ts'
import { relationMapProblem, type RelationMapProblem } from './relation-map-problem.ts'

/** Stored values of one column read to check its declared storage. */
const SAMPLE = 1000

const TEXT = `[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9] [0-9][0-9]:[0-9][0-9]:[0-9][0-9]*`
const ISO = `[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]*Z`

const DESCRIBED: Readonly<Record<DatetimeStorage, string>> = {
  text: "'text' (YYYY-MM-DD HH:MM:SS)",
  iso: "'iso' (ISO 8601 text ending in Z)",
  epoch_ms: "'epoch_ms' (integers)",
}

interface Counts {
  numbers: number | null
  texts: number | null
  isos: number | null
  total: number | null
}

/**
 * On SQLite, which stores any value in any column: samples up to {@link SAMPLE} non-null values of each
 * existing `datetime` column and warns (`datetime_storage_mismatch`) when some do not have the form its `storage`
 * declares (filters bind client values in that form, so such rows would compare, and sort, wrongly).
 * Other databases have date-time types, and nothing to sample.
 */
export async function checkDatetimeStorage(
  db: Knex,
  map: RelationMap,
  exists: (table: string, column: string) => boolean,
): Promise<RelationMapProblem[]> {
  if (!dialectOf(db.client).datetimeStorage) return []
  const problems: RelationMapProblem[] = []
  for (const [table, definition] of Object.entries(map)) {
    for (const [name, spec] of Object.entries(definition.columns)) {
      if (typeof spec === 'string' ? spec !== 'datetime' : spec.type !== 'datetime') continue
      const storage: DatetimeStorage = (typeof spec === 'string' ? undefined : spec.storage) ?? 'text'
      const column = databaseColumn(map, table, name)
      if (!exists(table, column)) continue
      const sample = db(table).select({ value: column }).whereNotNull(column).limit(SAMPLE).as('sample')
      const [counts] = (await db
        .from(sample)
        .select(
          db.raw(`sum(typeof(value) in ('integer', 'real')) as numbers`),
          db.raw(`sum(typeof(value) = 'text' and value glob ?) as texts`, [TEXT]),
          db.raw(`sum(typeof(value) = 'text' and value glob ?) as isos`, [ISO]),
          db.raw('count(*) as total'),
        )) as Counts[]
      const total = Number(counts?.total ?? 0)
      const fitting = Number(
        (storage === 'epoch_ms' ? counts?.numbers : storage === 'iso' ? counts?.isos : counts?.texts) ?? 0,
      )
      if (total === 0 || fitting === total) continue
      const found = [
        [Number(counts?.numbers ?? 0), 'numbers (epoch_ms?)'],
        [Number(counts?.isos ?? 0), 'ISO 8601 text (iso?)'],
        [Number(counts?.texts ?? 0), 'YYYY-MM-DD HH:MM:SS text (text?)'],
      ]
        .filter(([count]) => Number(count) > 0)
        .map(([count, what]) => `${count} ${what}`)
      problems.push(
        relationMapProblem(
          'datetime_storage_mismatch',
          `${table}.columns.${name}`,
          `declared storage ${DESCRIBED[storage]}, but ${total - fitting} of ${total} sampled values of ${table}.${column} are not${found.length > 0 ? ` (found ${found.join(', ')})` : ''}: filters and orders on it would not match PostgreSQL's`,
        ),
      )
    }
  }
  return problems
}
