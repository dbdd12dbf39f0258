import type { Knex } from 'knex'
import { Transform } from 'node:stream'
import type { BoundOptions } from '../bound/bound-options.ts'
import { carryBoundedRun } from '../bound/carried-run.ts'
import { runBounded } from '../bound/run-within-bound.ts'
import { StatementBound } from '../bound/statement-bound.ts'
import type { Row } from '../normalize/row-values.ts'
import { replaceRowReading, runAsKnex, statementCopy, streamAsKnex, type RowReading } from '../knex/builder-methods.ts'
import { methodOf, selectsAggregate } from '../knex/builder-state.ts'
import { chooseGuardedForm } from './choose-frequency-form.ts'
import { guardProbeOf, readInForm } from './page-rewrite.ts'

/**
 * What becomes of the rows a builder read before its caller sees them (eager loading, key stripping, normalizing),
 * in place; `bound` is the request's time bound, which the statements it runs must keep.
 */
export type FinishRows = (client: Knex.Client, rows: Row[], bound: StatementBound | undefined) => Promise<void> | void

/**
 * The statement that runs when a builder is read: a copy of it with statement options (see `jsonReadOptions`),
 * or `undefined` to run the builder as it is.
 */
export type ReadAs = (builder: Knex.QueryBuilder) => Knex.QueryBuilder | undefined

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
 * Makes every way of reading `builder` go through `finish`: awaiting it (`await`, `.then`), `.stream()` and every
 * `.clone()` of it, which keeps these three methods (not a page rewrite's own `toSQL`: a clone compiles as the
 * plain query, which reads the same rows, and which `countQuery` builds on; see `replaceRowReading`). Works for
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
export function attachRowReading(builder: Knex.QueryBuilder, finish: FinishRows, whole: boolean, reading: RowReadingOptions = {}): void {
  const { bound = {} } = reading
  const read: Read = { finish, readAs: reading.readAs, frequencyMemoMs: reading.frequencyMemoMs ?? 0 }
  // Methods, not functions assigned to names: loaders that keep function names (tsx, esbuild `keepNames`)
  // would otherwise pay a `defineProperty` for each on every request.
  const methods: RowReading = {
    then(onFulfilled, onRejected) {
      return execute(read, this, StatementBound.of(bound)).then(onFulfilled, onRejected)
    },
    stream(options) {
      const source = streamAsKnex(statementOf(read, this), options)
      if (!readsRows(this)) return source
      const { client } = this
      let batch: Row[] = []
      const flush = async (out: Transform): Promise<void> => {
        const rows = batch
        batch = []
        await finish(client, rows, undefined)
        for (const row of rows) out.push(row)
      }
      const rows = new Transform({
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
      source.on('error', (error: Error) => rows.destroy(error))
      rows.on('close', () => {
        if (!source.destroyed) source.destroy()
      })
      return source.pipe(rows)
    },
  }
  replaceRowReading(builder, methods)
  carryBoundedRun(builder, {
    options: bound,
    run(self, within) {
      return execute(read, self, within)
    },
  })
}

/** What a read of a builder does besides running it. */
interface Read {
  finish: FinishRows
  readAs: ReadAs | undefined
  frequencyMemoMs: number
}

function statementOf(read: Read, builder: Knex.QueryBuilder): Knex.QueryBuilder {
  return read.readAs?.(builder) ?? builder
}

async function execute(read: Read, self: Knex.QueryBuilder, within: StatementBound | undefined): Promise<unknown> {
  let run = statementOf(read, self)
  const probe = guardProbeOf(self)
  if (probe !== undefined) {
    if (run === self) run = statementCopy(self)
    readInForm(run, await chooseGuardedForm(self, probe, within, read.frequencyMemoMs))
  }
  const result = within === undefined ? await runAsKnex(run) : await runBounded(run === self ? statementCopy(self) : run, within)
  const rows = rowsOf(self, result)
  if (rows !== undefined) await read.finish(self.client, rows, within)
  return result
}

function readsRows(builder: Knex.QueryBuilder): boolean {
  if (selectsAggregate(builder)) return false
  const method = methodOf(builder)
  return method === 'select' || method === 'first' || method === undefined
}

function rowsOf(builder: Knex.QueryBuilder, result: unknown): Row[] | undefined {
  if (!readsRows(builder)) return undefined
  const method = methodOf(builder)
  if (method === 'select' && Array.isArray(result)) return result as Row[]
  if (method === 'first' && typeof result === 'object' && result !== null) return [result as Row]
  return undefined
}
