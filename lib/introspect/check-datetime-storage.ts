import type { Knex } from 'knex'
import { dialectOf } from '../dialect/dialect-of.ts'
import { databaseColumn } from '../map/columns.ts'
import type { DatetimeStorage, RelationMap } from '../relation-map.ts'
import { relationMapProblem, type RelationMapProblem } from './relation-map-problem.ts'

/** Stored values of one column read to check its declared storage. */
const SAMPLE = 1000

const TEXT = `[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9] [0-9][0-9]:[0-9][0-9]:[0-9][0-9]*`
const ISO = `[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]*Z`
const DAY = `[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]`
/** Epoch milliseconds from 1973 on; a smaller number is epoch seconds (up to year 5138). */
const EPOCH_MS_FROM = 1e11

const DESCRIBED: Readonly<Record<DatetimeStorage, string>> = {
  text: "'text' (YYYY-MM-DD HH:MM:SS)",
  iso: "'iso' (ISO 8601 text ending in Z)",
  epoch_ms: "'epoch_ms' (integers)",
  epoch_s: "'epoch_s' (numbers of seconds)",
  date: "'date' (YYYY-MM-DD text)",
}

interface Counts {
  numbers: number | null
  seconds: number | null
  texts: number | null
  isos: number | null
  days: number | null
  total: number | null
}

/** The sampled values that have the form `storage` declares. */
function fitting(storage: DatetimeStorage, counts: Counts | undefined): number {
  const count = {
    text: counts?.texts,
    iso: counts?.isos,
    epoch_ms: counts?.numbers,
    epoch_s: counts?.seconds,
    date: counts?.days,
  }
  return Number(count[storage] ?? 0)
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
          db.raw(`sum(typeof(value) in ('integer', 'real') and value < ?) as seconds`, [EPOCH_MS_FROM]),
          db.raw(`sum(typeof(value) = 'text' and value glob ?) as texts`, [TEXT]),
          db.raw(`sum(typeof(value) = 'text' and value glob ?) as isos`, [ISO]),
          db.raw(`sum(typeof(value) = 'text' and length(value) = 10 and value glob ?) as days`, [DAY]),
          db.raw('count(*) as total'),
        )) as Counts[]
      const total = Number(counts?.total ?? 0)
      const fits = fitting(storage, counts)
      if (total === 0 || fits === total) continue
      const seconds = Number(counts?.seconds ?? 0)
      const found = [
        [Number(counts?.numbers ?? 0) - seconds, 'numbers (epoch_ms?)'],
        [seconds, 'numbers below 1e11 (epoch_s?)'],
        [Number(counts?.isos ?? 0), 'ISO 8601 text (iso?)'],
        [Number(counts?.texts ?? 0), 'YYYY-MM-DD HH:MM:SS text (text?)'],
        [Number(counts?.days ?? 0), 'YYYY-MM-DD text (date?)'],
      ]
        .filter(([count]) => Number(count) > 0)
        .map(([count, what]) => `${count} ${what}`)
      problems.push(
        relationMapProblem(
          'datetime_storage_mismatch',
          `${table}.columns.${name}`,
          `declared storage ${DESCRIBED[storage]}, but ${total - fits} of ${total} sampled values of ${table}.${column} are not${found.length > 0 ? ` (found ${found.join(', ')})` : ''}: filters and orders on it would not match PostgreSQL's`,
        ),
      )
    }
  }
  return problems
}
