import type { Knex } from 'knex'
import { Transform } from 'node:stream'
import type { BoundOptions } from '../bound/bound-options.ts'
import { carryBoundedRun } from './read-state.ts'
import { StatementBound } from '../bound/statement-bound.ts'
import type { Row } from '../normalize/row-values.ts'
import { replaceRowReading, streamAsKnex, type RowReading } from '../knex/builder-methods.ts'
import {
  finishRows,
  readBuilder,
  readsRows,
  statementOf,
  type ReadAs,
  type ReadPipeline,
  type RowSteps,
} from './read-pipeline.ts'

export type { ReadAs } from './read-pipeline.ts'

/** How {@link attachRowReading} reads a builder. */
export interface RowReadingOptions {
  /** The time bound of each read (a `timeout` from the first statement, a `signal`). */
  bound?: BoundOptions
  /** Each read's statement: a copy with statement options (see `jsonReadOptions`). */
  readAs?: ReadAs | undefined
  /** How long the form a guarded page's probe chose is remembered (see `chooseGuardedForm`); 0: probe on every read. */
  frequencyMemoMs?: number
}

/**
 * Makes every way of reading `builder` go through the read pipeline (`read-pipeline.ts`), its rows through the
 * steps `rows`: awaiting it (`await`, `.then`), `.stream()` and every `.clone()` of it, which keeps these three
 * methods (not a page rewrite's own `toSQL`: a clone compiles as the plain query, which reads the same rows, and
 * which `countQuery` builds on; see `replaceRowReading`). Works for
 * `select` and `.first()`; other methods (`count`, `pluck`, `del`…) resolve as knex would.
 *
 * A stream finishes each row as it comes, unless `whole` (eager loading): then it finishes all rows once the
 * main query has been read, with one query per relation as awaiting does. Loading while the main query still
 * holds its connection could wait forever for a second one (SQLite's pool has one).
 *
 * With `reading.readAs`, each read runs what it makes of the builder at that moment (its own statement options).
 * A guarded page (see `guardedPage`) is read in two statements when awaited: its probe, then the page in the
 * one form the probe chose; a stream reads it as the one statement of both forms, as `toSQL()` shows it.
 *
 * Awaiting runs every statement within `reading.bound` (a `timeout` from the first statement, a `signal`; see
 * `runBounded`), and the builder carries a `BoundedRun` so that `paginate` can run it within a bound it
 * shares with the count.
 */
export function attachRowReading(
  builder: Knex.QueryBuilder,
  rows: RowSteps,
  whole: boolean,
  reading: RowReadingOptions = {},
): void {
  const { bound = {} } = reading
  const read: ReadPipeline = { rows, readAs: reading.readAs, frequencyMemoMs: reading.frequencyMemoMs ?? 0 }
  // Methods, not functions assigned to names: loaders that keep function names (tsx, esbuild `keepNames`)
  // would otherwise pay a `defineProperty` for each on every request.
  const methods: RowReading = {
    then(onFulfilled, onRejected) {
      return readBuilder(read, this, StatementBound.of(bound)).then(onFulfilled, onRejected)
    },
    stream(options) {
      const source = streamAsKnex(statementOf(read, this), options)
      if (!readsRows(this)) return source
      const { client } = this
      let batch: Row[] = []
      const flush = async (out: Transform): Promise<void> => {
        const rows = batch
        batch = []
        await finishRows(read.rows, client, rows, undefined)
        for (const row of rows) out.push(row)
      }
      const finished = new Transform({
        objectMode: true,
        transform(row: Row, _encoding, done) {
          batch.push(row)
          if (whole) return done()
          flush(this).then(() => done(), done)
        },
        flush(done) {
          flush(this).then(() => done(), done)
        },
      })
      source.on('error', (error: Error) => finished.destroy(error))
      finished.on('close', () => {
        if (!source.destroyed) source.destroy()
      })
      return source.pipe(finished)
    },
  }
  replaceRowReading(builder, methods)
  carryBoundedRun(builder, {
    options: bound,
    run(self, within) {
      return readBuilder(read, self, within)
    },
  })
}
