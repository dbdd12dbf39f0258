import type { Knex } from 'knex'
import { dialectOf } from '../dialect/dialect-of.ts'
import { databaseColumn } from '../map/columns.ts'
import type { DatetimeStorage, RelationMap } from '../relation-map.ts'
import type { IntrospectionNotice } from './introspection-notice.ts'

/** Stored values of one column read to find its storage. */
const SAMPLE = 1000

const TEXT = `[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9] [0-9][0-9]:[0-9][0-9]:[0-9][0-9]*`
const ISO = `[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]*Z`
const DAY = `[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]`
/** Epoch milliseconds from 1973 on; a smaller integer is epoch seconds (up to year 5138). */
const EPOCH_MS_FROM = 1e11

interface Counts { ms: number | null; seconds: number | null; texts: number | null; isos: number | null; days: number | null; total: number | null }

/**
 * On SQLite, which stores any value in any column: samples up to {@link SAMPLE} non-null values of each
 * `datetime` column of the generated `map` and declares the storage they have: `epoch_ms` (integers, as knex
 * writes a JS `Date` through better-sqlite3), `iso`, or `text` (the default, left undeclared). Values of no
 * single form the map can declare (epoch seconds, date-only text, a mix) keep the default, with a notice. Other databases have date-time types: nothing to sample.
 */
export async function sampleDatetimeStorage(db: Knex, map: RelationMap, notices: IntrospectionNotice[]): Promise<void> {
  if (!dialectOf(db.client).datetimeStorage) return
  for (const [table, definition] of Object.entries(map)) {
    for (const [name, spec] of Object.entries(definition.columns)) {
      if ((typeof spec === 'string' ? spec : spec.type) !== 'datetime') continue
      const column = databaseColumn(map, table, name)
      const sample = db(table).select({ value: column }).whereNotNull(column).limit(SAMPLE).as('sample')
      const [counts] = (await db.from(sample).select(
        db.raw(`sum(typeof(value) = 'integer' and value >= ?) as ms`, [EPOCH_MS_FROM]),
        db.raw(`sum(typeof(value) in ('integer', 'real') and value < ?) as seconds`, [EPOCH_MS_FROM]),
        db.raw(`sum(typeof(value) = 'text' and value glob ?) as texts`, [TEXT]),
        db.raw(`sum(typeof(value) = 'text' and value glob ?) as isos`, [ISO]),
        db.raw(`sum(typeof(value) = 'text' and length(value) = 10 and value glob ?) as days`, [DAY]),
        db.raw('count(*) as total'),
      )) as Counts[]
      const total = Number(counts?.total ?? 0)
      if (total === 0) continue
      const storage: DatetimeStorage | undefined =
        Number(counts?.ms) === total ? 'epoch_ms' : Number(counts?.isos) === total ? 'iso' : Number(counts?.texts) === total ? 'text' : undefined
      if (storage === 'epoch_ms' || storage === 'iso') {
        definition.columns[name] = { ...(typeof spec === 'string' ? { type: spec } : spec), storage }
        notices.push({ kind: 'datetime-storage', table, column, message: `${table}.${column}: declared storage '${storage}', the form of its ${total} sampled values` })
      } else if (storage === undefined) {
        const found = `${Number(counts?.ms)} epoch ms, ${Number(counts?.seconds)} epoch seconds, ${Number(counts?.isos)} ISO, ${Number(counts?.texts)} text, ${Number(counts?.days)} date-only`
        notices.push({ kind: 'datetime-storage', table, column, message: `${table}.${column}: storage left 'text', its ${total} sampled values have no one form the map can declare (${found}); checkRelationMap will warn` })
      }
    }
  }
}
