import type { Knex } from 'knex'
import { dialectOf } from '../dialect/dialect-of.ts'
import { databaseColumn } from '../map/columns.ts'
import type { DatetimeStorage, RelationMap } from '../relation-map.ts'
import { countDatetimeForms } from './datetime-forms.ts'
import type { IntrospectionNotice } from './introspection-notice.ts'

type Form = 'ms' | 'seconds' | 'texts' | 'isos' | 'days'

/** The storage declared when every sampled value has the form. */
const STORAGES: ReadonlyArray<readonly [Form, DatetimeStorage]> = [
  ['ms', 'epoch_ms'],
  ['seconds', 'epoch_s'],
  ['isos', 'iso'],
  ['texts', 'text'],
  ['days', 'date'],
]

const FOUND: ReadonlyArray<readonly [Form, string]> = [
  ['ms', 'epoch ms'],
  ['seconds', 'epoch seconds'],
  ['isos', 'ISO'],
  ['texts', 'text'],
  ['days', 'date-only'],
]

/**
 * On SQLite, which stores any value in any column: samples up to 1,000 (`DATETIME_SAMPLE`) non-null values of each
 * `datetime` column of the generated `map` and declares the storage they have: `epoch_ms` (integers from 1e11,
 * as knex writes a JS `Date` through better-sqlite3), `epoch_s` (smaller numbers: Unix seconds), `iso`, `date`
 * (`YYYY-MM-DD` text), or `text` (the default, left undeclared). Values of no single form (a mix) keep the
 * default, with a notice.
 * Other databases have date-time types: nothing to sample.
 */
export async function sampleDatetimeStorage(db: Knex, map: RelationMap, notices: IntrospectionNotice[]): Promise<void> {
  if (!dialectOf(db.client).datetimeStorage) return
  for (const [table, definition] of Object.entries(map)) {
    for (const [name, spec] of Object.entries(definition.columns)) {
      if ((typeof spec === 'string' ? spec : spec.type) !== 'datetime') continue
      const column = databaseColumn(map, table, name)
      const counts = await countDatetimeForms(db, table, column)
      const { total } = counts
      if (total === 0) continue
      const all = (form: Form): boolean => counts[form] === total
      const storage = STORAGES.find(([form]) => all(form))?.[1]
      const at = `${table}.${column}`
      if (storage !== undefined && storage !== 'text') {
        definition.columns[name] = { ...(typeof spec === 'string' ? { type: spec } : spec), storage }
        const message = `${at}: declared storage '${storage}', the form of its ${total} sampled values`
        notices.push({ kind: 'datetime-storage', table, column, message })
      } else if (storage === undefined) {
        const found = FOUND.map(([form, what]) => `${counts[form]} ${what}`).join(', ')
        const message =
          `${at}: storage left 'text', its ${total} sampled values have no one form the map can declare` +
          ` (${found}); checkRelationMap will warn`
        notices.push({ kind: 'datetime-storage', table, column, message })
      }
    }
  }
}
