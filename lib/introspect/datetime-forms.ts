import type { Knex } from 'knex'

/** Stored values of one column read to find or check its storage. */
export const DATETIME_SAMPLE = 1000

const TEXT = `[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9] [0-9][0-9]:[0-9][0-9]:[0-9][0-9]*`
const ISO = `[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]*Z`
const DAY = `[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]`
/** Epoch milliseconds from 1973 on; a smaller number is epoch seconds (up to year 5138). */
const EPOCH_MS_FROM = 1e11

/** How many of a column's sampled values have each form a SQLite `datetime` can be stored in. */
export interface DatetimeForms {
  /** Numbers of any size (integers or reals). */
  readonly numbers: number
  /** Integers from 1e11: epoch milliseconds. */
  readonly ms: number
  /** Numbers below 1e11: epoch seconds. */
  readonly seconds: number
  /** `YYYY-MM-DD HH:MM:SS…` text. */
  readonly texts: number
  /** ISO 8601 text ending in `Z`. */
  readonly isos: number
  /** `YYYY-MM-DD` text. */
  readonly days: number
  readonly total: number
}

/**
 * Counts the forms of up to {@link DATETIME_SAMPLE} non-null values of `table.column` (database names), on SQLite,
 * which stores any value in any column.
 */
export async function countDatetimeForms(db: Knex, table: string, column: string): Promise<DatetimeForms> {
  const sample = db(table).select({ value: column }).whereNotNull(column).limit(DATETIME_SAMPLE).as('sample')
  const [counts] = (await db
    .from(sample)
    .select(
      db.raw(`sum(typeof(value) in ('integer', 'real')) as numbers`),
      db.raw(`sum(typeof(value) = 'integer' and value >= ?) as ms`, [EPOCH_MS_FROM]),
      db.raw(`sum(typeof(value) in ('integer', 'real') and value < ?) as seconds`, [EPOCH_MS_FROM]),
      db.raw(`sum(typeof(value) = 'text' and value glob ?) as texts`, [TEXT]),
      db.raw(`sum(typeof(value) = 'text' and value glob ?) as isos`, [ISO]),
      db.raw(`sum(typeof(value) = 'text' and length(value) = 10 and value glob ?) as days`, [DAY]),
      db.raw('count(*) as total'),
    )) as Array<Record<keyof DatetimeForms, number | string | null>>
  const count = (form: keyof DatetimeForms): number => Number(counts?.[form] ?? 0)
  return {
    numbers: count('numbers'),
    ms: count('ms'),
    seconds: count('seconds'),
    texts: count('texts'),
    isos: count('isos'),
    days: count('days'),
    total: count('total'),
  }
}
