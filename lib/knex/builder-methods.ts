import type { Knex } from 'knex'
import type { Readable } from 'node:stream'

/**
 * The builder methods the library replaces, how a replaced builder is cloned, and how to run or compile one as
 * knex would. Part of the knex boundary (see `lib/knex/`): knex's runner compiles a builder through its own
 * `toSQL()`, `await` goes through its own `then`, and `clone()` copies neither (pinned by
 * `spec/knex/knex-behaviours.spec.ts`).
 */

/** A builder's `then` as knex calls it when the builder is awaited. */
export type Then = (
  this: Knex.QueryBuilder,
  onFulfilled?: (value: unknown) => unknown,
  onRejected?: (reason: unknown) => unknown,
) => Promise<unknown>
/** A builder's `stream(options)`. */
export type Stream = (this: Knex.QueryBuilder, options?: Readonly<Record<string, unknown>>) => Readable

type ToSql = (this: Knex.QueryBuilder, method?: string, tz?: unknown) => Knex.Sql
type Clone = (this: Knex.QueryBuilder) => Knex.QueryBuilder

/** The methods of knex's own builders (those an own replacement hides). */
interface KnexMethods {
  then: (this: Knex.QueryBuilder | Knex.Raw) => Promise<unknown>
  stream: Stream
  clone: Clone
  toSQL: ToSql
}

const knexMethods = (builder: Knex.QueryBuilder | Knex.Raw): KnexMethods =>
  Object.getPrototypeOf(builder) as KnexMethods

/**
 * Sets an own property by assignment: as fast as any field knex sets (`Object.defineProperty` took ~0.2 µs a
 * property on every request). Knex's builders read their fields by name, so the extra enumerable keys are unseen.
 */
const replace = (builder: Knex.QueryBuilder, name: PropertyKey, value: unknown): void => {
  ;(builder as unknown as Record<PropertyKey, unknown>)[name] = value
}

/** Runs `statement` (a builder or a raw) as knex would, ignoring an own `then` it may carry. */
export function runAsKnex(statement: Knex.QueryBuilder | Knex.Raw): Promise<unknown> {
  return knexMethods(statement).then.call(statement)
}

/** `builder.stream(options)` as knex would, ignoring an own `stream` it may carry. */
export function streamAsKnex(builder: Knex.QueryBuilder, options?: Readonly<Record<string, unknown>>): Readable {
  return knexMethods(builder).stream.call(builder, options)
}

/**
 * Makes `builder` compile, in `toSQL()` and so whenever it runs, as what `substitute` makes of it at that
 * moment (given the method it compiles as: `'select'`, `'first'`…), or as itself when `substitute` returns
 * `undefined`. A `.clone()` of `builder` compiles as itself again; {@link statementCopy} keeps the substitute.
 */
export function compileAs(
  builder: Knex.QueryBuilder,
  substitute: (query: Knex.QueryBuilder, method: string | undefined) => Knex.QueryBuilder | undefined,
): void {
  const compile = knexMethods(builder).toSQL
  const methods: { toSQL: ToSql } = {
    toSQL(method, tz) {
      return compile.call(substitute(this, method) ?? this, method, tz)
    },
  }
  replace(builder, 'toSQL', methods.toSQL)
}

/** How the library reads a builder: its own `then` (what awaiting resolves to) and `stream`. */
export interface RowReading {
  then: Then
  stream: Stream
}

const READING = ['then', 'stream', 'clone'] as const

/**
 * Replaces `then` and `stream` of `builder` with `reading`'s, and its `clone()` with one whose copies keep
 * them (and clone the same way), so every clone reads as `builder` does. The clones compile as plain
 * builders: a substitute set by {@link compileAs} is not kept.
 */
export function replaceRowReading(builder: Knex.QueryBuilder, reading: RowReading): void {
  const clone = knexMethods(builder).clone
  // Methods, not functions assigned to names: loaders that keep function names (tsx, esbuild `keepNames`)
  // would otherwise pay a `defineProperty` for each on every request.
  const methods: { clone: Clone } = {
    clone() {
      const copy = clone.call(this)
      for (const name of READING) {
        const own = Object.getOwnPropertyDescriptor(this, name)
        if (own !== undefined) Object.defineProperty(copy, name, own)
      }
      return copy
    },
  }
  replace(builder, 'then', reading.then)
  replace(builder, 'stream', reading.stream)
  replace(builder, 'clone', methods.clone)
}

/**
 * A copy of `builder` that runs the same SQL: its `.clone()` (with the row reading of
 * {@link replaceRowReading}, if any) that also keeps a substitute set by {@link compileAs}. It can be bound
 * to a connection or a transaction without changing `builder`.
 */
export function statementCopy(builder: Knex.QueryBuilder): Knex.QueryBuilder {
  const copy = builder.clone()
  const toSQL = Object.getOwnPropertyDescriptor(builder, 'toSQL')
  if (toSQL !== undefined) Object.defineProperty(copy, 'toSQL', toSQL)
  return copy
}

/**
 * A new, empty builder on the client of `builder` (its transaction's, after `.transacting(trx)`) and on the
 * connection it was given with `.connection(…)`, if any: a statement that must run where `builder` runs.
 */
export function builderBeside(builder: Knex.QueryBuilder): Knex.QueryBuilder {
  const fresh = builder.client.queryBuilder()
  const { _connection: connection } = builder as unknown as { _connection?: unknown }
  return connection === undefined ? fresh : fresh.connection(connection)
}
