import type { Knex } from 'knex'

/** One recorded statement of a knex builder (knex's own internal shape). */
export interface KnexStatement {
  grouping: string
  type?: string
  bool?: string
  value?: unknown
  not?: boolean
}

/** The parts of a knex builder's internal state this library reads; knex's typings do not expose them. */
export interface KnexInternals {
  _statements: KnexStatement[]
  _single: { table?: unknown; schema?: unknown; limit?: unknown; offset?: unknown; lock?: unknown }
  _method?: string
}

/** The parts of a knex client the library uses to quote identifiers as knex would. */
export interface ClientInternals {
  config: { wrapIdentifier?: unknown }
  wrapIdentifier(value: string, queryContext: unknown): string
  alias(first: string, second: string): string
}

/** Access to a builder's recorded statements: the one place that relies on knex internals. */
export function internalsOf(builder: Knex.QueryBuilder): KnexInternals {
  return builder as unknown as KnexInternals
}

/** Access to the identifier quoting of a builder's client. */
export function clientInternalsOf(client: Knex.Client): ClientInternals {
  return client as unknown as ClientInternals
}

/** The `where` clause of a builder as knex compiles it: `where …` text with `?` placeholders, and its bindings. */
export interface CompiledWhere {
  sql: string
  bindings: Knex.Value[]
  /** Columns compared with `undefined` (knex refuses to run such a query). */
  undefinedColumns: string[]
}

interface CompilerInternals {
  where(): string | undefined
  bindings: Knex.Value[]
  undefinedBindingsInfo: string[]
  _undefinedInWhereClause?: boolean
}

/** Compiles only the where statements of `builder`, with knex's own compiler (far cheaper than `toSQL()`). */
export function compileWhere(builder: Knex.QueryBuilder): CompiledWhere {
  const compiler = (builder.client as unknown as { queryCompiler(builder: Knex.QueryBuilder): CompilerInternals }).queryCompiler(builder)
  compiler.undefinedBindingsInfo = []
  const sql = compiler.where() ?? ''
  return { sql, bindings: compiler.bindings, undefinedColumns: compiler._undefinedInWhereClause === true ? compiler.undefinedBindingsInfo : [] }
}
