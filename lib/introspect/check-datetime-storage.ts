import type { Knex } from 'knex'
import { dialectOf } from '../dialect/dialect-of.ts'
import { databaseColumn } from '../map/columns.ts'
import type { DatetimeStorage, RelationMap } from '../relation-map.ts'
import { countDatetimeForms, type DatetimeForms } from './datetime-forms.ts'
import { relationMapProblem, type RelationMapProblem } from './relation-map-problem.ts'

const DESCRIBED: Readonly<Record<DatetimeStorage, string>> = {
  text: "'text' (YYYY-MM-DD HH:MM:SS)",
  iso: "'iso' (ISO 8601 text ending in Z)",
  epoch_ms: "'epoch_ms' (integers)",
  epoch_s: "'epoch_s' (numbers of seconds)",
  date: "'date' (YYYY-MM-DD text)",
}

/** The sampled values that have the form `storage` declares. */
function fitting(storage: DatetimeStorage, counts: DatetimeForms): number {
  const count: Readonly<Record<DatetimeStorage, number>> = {
    text: counts.texts,
    iso: counts.isos,
    epoch_ms: counts.numbers,
    epoch_s: counts.seconds,
    date: counts.days,
  }
  return count[storage]
}

/**
 * On SQLite, which stores any value in any column: samples up to 1,000 (`DATETIME_SAMPLE`) non-null values of each
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
      const counts = await countDatetimeForms(db, table, column)
      const { total, seconds } = counts
      const fits = fitting(storage, counts)
      if (total === 0 || fits === total) continue
      const found = [
        [counts.numbers - seconds, 'numbers (epoch_ms?)'],
        [seconds, 'numbers below 1e11 (epoch_s?)'],
        [counts.isos, 'ISO 8601 text (iso?)'],
        [counts.texts, 'YYYY-MM-DD HH:MM:SS text (text?)'],
        [counts.days, 'YYYY-MM-DD text (date?)'],
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
