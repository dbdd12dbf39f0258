import type { Knex } from 'knex'
import { Transform, type Readable } from 'node:stream'
import type { BoundOptions } from '../bound/bound-options.ts'
import { BOUNDED_RUN, type BoundedRun } from '../bound/bounded-run.ts'
import { runBounded } from '../bound/run-bounded.ts'
import { statementCopy } from '../bound/statement-copy.ts'
import { StatementBound } from '../bound/statement-bound.ts'
import type { Row } from '../normalize/row-values.ts'
import { internalsOf } from '../knex/knex-internals.ts'

type Then = (this: Knex.QueryBuilder, onFulfilled?: (value: unknown) => unknown, onRejected?: (reason: unknown) => unknown) => Promise<unknown>
type Stream = (this: Knex.QueryBuilder, options?: Readonly<Record<string, unknown>>) => Readable
type Clone = (this: Knex.QueryBuilder) => Knex.QueryBuilder

/**
 * What becomes of the rows a builder read before its caller sees them (eager loading, key stripping, normalizing),
 * in place; `bound` is the request's time bound, which the statements it runs must keep.
 */
export type FinishRows = (client: Knex.Client, rows: Row[], bound: StatementBound | undefined) => Promise<void> | void

/**
 * Makes every way of reading `builder` go through `finish`: awaiting it (`await`, `.then`), `.stream()` and every
 * `.clone()` of it, which keeps
 * these three methods (not a page rewrite's own `toSQL`: a clone compiles as the plain query, which reads the
 * same rows, and which `countQuery` builds on). Works for `select` and `.first()`; other
 * methods (`count`, `pluck`, `del`…) resolve as knex would.
 */
/**
 * A stream finishes each row as it comes, unless `whole` (eager loading): then it finishes all rows once the
 * main query has been read, with one query per relation as awaiting does. Loading while the main query still
 * holds its connection could wait forever for a second one (SQLite's pool has one).
 *
 * Awaiting runs every statement within `bound` (a `timeout` from the first statement, a `signal`; see
 * `runBounded`), and the builder carries a {@link BoundedRun} so that `paginate` can run it within a bound it
 * shares with the count.
 */
export function attachRowReading(builder: Knex.QueryBuilder, finish: FinishRows, whole: boolean, bound: BoundOptions = {}): void {
  const proto = Object.getPrototypeOf(builder) as { then: Then; stream: Stream; clone: Clone }
  const execute = async (self: Knex.QueryBuilder, within: StatementBound | undefined): Promise<unknown> => {
    const result = within === undefined ? await proto.then.call(self) : await runBounded(statementCopy(self), within)
    const read = rowsOf(self, result)
    if (read !== undefined) await finish(self.client, read, within)
    return result
  }
  // Methods, not functions assigned to names: loaders that keep function names (tsx, esbuild `keepNames`)
  // would otherwise pay a `defineProperty` for each on every request.
  const methods: { then: Then; stream: Stream; clone: Clone } = {
    then(onFulfilled, onRejected) {
      return execute(this, StatementBound.of(bound)).then(onFulfilled, onRejected)
    },
    stream(options) {
      const source = proto.stream.call(this, options)
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
    clone() {
      const copy = proto.clone.call(this)
      for (const name of ['then', 'stream', 'clone']) {
        const own = Object.getOwnPropertyDescriptor(this, name)
        if (own !== undefined) Object.defineProperty(copy, name, own)
      }
      return copy
    },
  }
  for (const name of ['then', 'stream', 'clone'] as const) {
    Object.defineProperty(builder, name, { value: methods[name], configurable: true, writable: true })
  }
  const boundedRun: BoundedRun = { options: bound, run: execute }
  Object.defineProperty(builder, BOUNDED_RUN, { value: boundedRun, configurable: true, writable: true })
}

function readsRows(builder: Knex.QueryBuilder): boolean {
  const internals = internalsOf(builder)
  if (internals._statements.some((statement) => statement.type === 'aggregate' || statement.type === 'aggregateRaw')) return false
  return internals._method === 'select' || internals._method === 'first' || internals._method === undefined
}

function rowsOf(builder: Knex.QueryBuilder, result: unknown): Row[] | undefined {
  if (!readsRows(builder)) return undefined
  const { _method } = internalsOf(builder)
  if (_method === 'select' && Array.isArray(result)) return result as Row[]
  if (_method === 'first' && typeof result === 'object' && result !== null) return [result as Row]
  return undefined
}
