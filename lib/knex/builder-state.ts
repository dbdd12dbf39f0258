import type { Knex } from 'knex'

/**
 * What a knex builder has recorded, read and changed through knex's internal fields (`_statements`, `_single`,
 * `_method`, `_options`) and its where compiler. Part of the knex boundary (see `lib/knex/`): every behaviour
 * relied on here is pinned by `spec/knex/knex-behaviours.spec.ts`.
 */

/** One recorded statement of a knex builder (knex's own shape; never leaves `lib/knex/`). */
interface KnexStatement {
  grouping: string
  type?: string
  bool?: string
  value?: unknown
  not?: boolean
  table?: unknown
}

interface BuilderInternals {
  _statements: KnexStatement[]
  _single: {
    table?: unknown
    schema?: unknown
    limit?: unknown
    offset?: unknown
    lock?: unknown
    skipBinding?: Record<string, unknown>
  }
  _method?: string
  _options?: ReadonlyArray<Readonly<Record<string, unknown>>>
}

const internals = (builder: Knex.QueryBuilder): BuilderInternals => builder as unknown as BuilderInternals
const statementsOf = (builder: Knex.QueryBuilder): KnexStatement[] => internals(builder)._statements
const flagged = (statement: KnexStatement, name: 'distinct' | 'distinctOn'): boolean =>
  Object.getOwnPropertyDescriptor(statement, name)?.value === true
const valuesOf = (statement: KnexStatement): unknown[] =>
  Array.isArray(statement.value) ? (statement.value as unknown[]) : [statement.value]
const isAggregate = (statement: KnexStatement): boolean =>
  statement.type === 'aggregate' || statement.type === 'aggregateRaw'

/** The schema a builder was given with `withSchema('analytics')`, or `undefined`. */
export function schemaOf(builder: Knex.QueryBuilder): string | undefined {
  const { schema } = internals(builder)._single as { schema?: unknown }
  return typeof schema === 'string' && schema !== '' ? schema : undefined
}

/** The base table named in `db('posts')` or `db('posts as p')` as written, or `undefined` (a subquery, a raw, none). */
export function baseTableOf(builder: Knex.QueryBuilder): string | undefined {
  const { table } = internals(builder)._single
  return typeof table === 'string' ? table : undefined
}

/** The builder's `limit`, when it is a number. */
export function limitOf(builder: Knex.QueryBuilder): number | undefined {
  const { limit } = internals(builder)._single
  return typeof limit === 'number' ? limit : undefined
}

/** The builder's `offset`, when it is a number. */
export function offsetOf(builder: Knex.QueryBuilder): number | undefined {
  const { offset } = internals(builder)._single
  return typeof offset === 'number' ? offset : undefined
}

/** The method the builder compiles as when none is given (`'select'`, `'first'`, `'del'`, `'pluck'`…). */
export function methodOf(builder: Knex.QueryBuilder): string | undefined {
  return internals(builder)._method
}

/** Whether the builder selects an aggregate (`count`, `sum`, … or a raw one). */
export function selectsAggregate(builder: Knex.QueryBuilder): boolean {
  return statementsOf(builder).some(isAggregate)
}

/** Whether the builder has an `order by`. */
export function hasOrder(builder: Knex.QueryBuilder): boolean {
  return statementsOf(builder).some((statement) => statement.grouping === 'order')
}

/**
 * What the select statements of `builder` hold, in order and flattened: column names as given (`'id'`,
 * `'posts.*'`), or the raw fragments and objects passed to `select`; `undefined` when nothing is selected.
 */
export function selectedValues(builder: Knex.QueryBuilder): unknown[] | undefined {
  let values: unknown[] | undefined
  for (const statement of statementsOf(builder)) {
    if (statement.grouping !== 'columns') continue
    values ??= []
    if (Array.isArray(statement.value)) for (const value of statement.value as unknown[]) values.push(value)
    else values.push(statement.value)
  }
  return values
}

/** The tables of the builder's joins given by name, as written (`'users'`, `'users as u'`). */
export function joinedTables(builder: Knex.QueryBuilder): string[] {
  const tables: string[] = []
  for (const statement of statementsOf(builder)) {
    if (statement.grouping === 'join' && typeof statement.table === 'string') tables.push(statement.table)
  }
  return tables
}

/** Whether more than the where conditions decides the rows: `distinct` (on), `group by`, `having` or `union`. */
export function shapesRows(builder: Knex.QueryBuilder): boolean {
  return statementsOf(builder).some(
    (statement) =>
      (statement.grouping === 'columns' && (flagged(statement, 'distinct') || flagged(statement, 'distinctOn'))) ||
      statement.grouping === 'group' ||
      statement.grouping === 'having' ||
      statement.grouping === 'union',
  )
}

/**
 * The kind of the first clause of `builder` that is not a where condition (`'columns'`, `'join'`, `'order'`…), if any.
 */
export function clauseOtherThanWhere(builder: Knex.QueryBuilder): string | undefined {
  return statementsOf(builder).find((statement) => statement.grouping !== 'where')?.grouping
}

/**
 * Whether `builder` is a plain list of rows of `ref` that a rewrite may reshape: only where conditions, orders,
 * joins marked by `joins`, and columns without `distinct`, aggregates, `*` or `ref.*`; no row lock and no
 * `withSchema`.
 */
export function isPlainRowList(builder: Knex.QueryBuilder, ref: string, joins: StatementMark): boolean {
  const { lock, schema } = internals(builder)._single
  if (lock !== undefined || schema !== undefined) return false
  return statementsOf(builder).every((statement) => {
    switch (statement.grouping) {
      case 'where':
      case 'order':
        return true
      case 'join':
        return joins.marks(statement)
      case 'columns':
        if (statement.type !== undefined || flagged(statement, 'distinct') || flagged(statement, 'distinctOn'))
          return false
        return !valuesOf(statement).some((value) => value === '*' || value === `${ref}.*`)
      default:
        return false
    }
  })
}

/** The number of statements recorded so far; pass it to {@link groupWheres} after adding more. */
export function statementCount(builder: Knex.QueryBuilder): number {
  return statementsOf(builder).length
}

/**
 * Moves the where statements recorded from position `from` on into one parenthesised group, so an `or` among
 * them cannot escape: `a or b` becomes `(a or b)`. Does nothing when they hold no `or`.
 */
export function groupWheres(builder: Knex.QueryBuilder, from = 0): void {
  const statements = statementsOf(builder)
  if (!hasLaterOr(statements, from)) return
  const kept: KnexStatement[] = []
  const moved: KnexStatement[] = []
  statements.forEach((statement, index) =>
    (statement.grouping === 'where' && index >= from ? moved : kept).push(statement),
  )
  const group: KnexStatement = {
    grouping: 'where',
    type: 'whereWrapped',
    bool: 'and',
    not: false,
    value(this: Knex.QueryBuilder) {
      statementsOf(this).push(...moved)
    },
  }
  internals(builder)._statements = [...kept, group]
}

function hasLaterOr(statements: readonly KnexStatement[], from: number): boolean {
  let first = true
  for (let index = from; index < statements.length; index++) {
    const statement = statements[index] as KnexStatement
    if (statement.grouping !== 'where') continue
    if (!first && statement.bool === 'or') return true
    first = false
  }
  return false
}

/** Whether `builder` has a where condition. */
export function hasWheres(builder: Knex.QueryBuilder): boolean {
  return statementsOf(builder).some((statement) => statement.grouping === 'where')
}

/** Appends the where conditions of `from` (the same statements, bindings included) to those of `to`. */
export function copyWheres(from: Knex.QueryBuilder, to: Knex.QueryBuilder): void {
  statementsOf(to).push(...statementsOf(from).filter((statement) => statement.grouping === 'where'))
}

/** Whether `builder` holds `raw` as a where condition of its own (`builder.whereRaw(raw)`). */
export function holdsWhereRaw(builder: Knex.QueryBuilder, raw: Knex.Raw): boolean {
  return statementsOf(builder).some((statement) => statement.grouping === 'where' && statement.value === raw)
}

/**
 * Puts `to` where `builder` holds the where condition `from` (`builder.whereRaw(from)`), keeping its place and
 * its `and`/`or`; changes `builder` only (pass a clone): the statement is replaced, not changed.
 */
export function replaceWhereRaw(builder: Knex.QueryBuilder, from: Knex.Raw, to: Knex.Raw): void {
  const statements = statementsOf(builder)
  const at = statements.findIndex((statement) => statement.grouping === 'where' && statement.value === from)
  const found = statements[at]
  if (found !== undefined) statements[at] = { ...found, value: to }
}

/**
 * Whether `builder` holds `raw` as an order (`orderByRaw(raw)`) or as a selected fragment (`select(raw)`) of its own.
 */
export function holdsRaw(builder: Knex.QueryBuilder, grouping: 'order' | 'columns', raw: Knex.Raw): boolean {
  return statementsOf(builder).some((statement) => statement.grouping === grouping && valuesOf(statement).includes(raw))
}

/**
 * Puts `to` where `builder` holds the order or the selected fragment `from` (see {@link holdsRaw}), keeping its
 * place; changes `builder` only (pass a clone): the statement is replaced, not changed.
 */
export function replaceRaw(
  builder: Knex.QueryBuilder,
  grouping: 'order' | 'columns',
  from: Knex.Raw,
  to: Knex.Raw,
): void {
  const statements = statementsOf(builder)
  const at = statements.findIndex((statement) => statement.grouping === grouping && valuesOf(statement).includes(from))
  const found = statements[at]
  if (found === undefined) return
  const value = Array.isArray(found.value) ? found.value.map((item: unknown) => (item === from ? to : item)) : to
  statements[at] = { ...found, value }
}

/**
 * Sets the builder's limit to a raw expression (knex's `limit()` takes only numbers): `limit case when … end`, its
 * bindings bound (a `skipBinding` of the number it replaces would write them into the SQL).
 */
export function limitByRaw(builder: Knex.QueryBuilder, limit: Knex.Raw): void {
  const single = internals(builder)._single
  single.limit = limit
  if (single.skipBinding !== undefined) single.skipBinding = { ...single.skipBinding, limit: false }
}

/** Moves the join recorded last in front of the builder's other joins, so that it is the first joined table. */
export function putLastJoinFirst(builder: Knex.QueryBuilder): void {
  const statements = statementsOf(builder)
  const join = statements.pop()
  const firstJoin = statements.findIndex((statement) => statement.grouping === 'join')
  if (join !== undefined) statements.splice(firstJoin === -1 ? statements.length : firstJoin, 0, join)
}

/**
 * A mark on statements a builder recorded. Clones of the builder keep the marked statements (knex copies the
 * statement list, not the statements), so a mark set on a builder is found on every clone made after.
 */
export class StatementMark {
  private readonly marked = new WeakSet<object>()

  /** Marks the statement `builder` recorded last (as a `joinRaw` records one). */
  markLast(builder: Knex.QueryBuilder): void {
    const statement = statementsOf(builder).at(-1)
    if (statement !== undefined) this.marked.add(statement)
  }

  /** Whether `statement` (a recorded statement) carries this mark. */
  marks(statement: object): boolean {
    return this.marked.has(statement)
  }

  /** Removes the marked statements from `builder` (changed in place: pass a clone) and returns it. */
  removeFrom(builder: Knex.QueryBuilder): Knex.QueryBuilder {
    const statements = statementsOf(builder)
    if (statements.some((statement) => this.marked.has(statement))) {
      internals(builder)._statements = statements.filter((statement) => !this.marked.has(statement))
    }
    return builder
  }
}

/** The options given to the statement with `builder.options(…)`, in order. */
export function statementOptionsOf(builder: Knex.QueryBuilder): ReadonlyArray<Readonly<Record<string, unknown>>> {
  return internals(builder)._options ?? []
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
  const compiler = (
    builder.client as unknown as { queryCompiler(builder: Knex.QueryBuilder): CompilerInternals }
  ).queryCompiler(builder)
  compiler.undefinedBindingsInfo = []
  const sql = compiler.where() ?? ''
  return {
    sql,
    bindings: compiler.bindings,
    undefinedColumns: compiler._undefinedInWhereClause === true ? compiler.undefinedBindingsInfo : [],
  }
}
