import type { Knex } from 'knex'
import type { RelationMap } from '../relation-map.ts'
import { GuardError } from './guard-error.ts'
import { clauseOtherThanWhere, compileWhere } from '../knex/builder-state.ts'

/** Where `writeAnd` appends: SQL text and its bindings in placeholder order (a `SqlWriter`). */
interface SqlOut {
  text(sql: string): unknown
  readonly bindings: Knex.Value[]
}

/** A guard's conditions compiled for one position: SQL text (with `?` placeholders) and its bindings. */
interface GuardSql {
  sql: string
  bindings: readonly Knex.Value[]
}

const WHERE = 'where '
/**
 * The row guards of a relation map for one request (one `context`): they add each table's guard to every
 * query and subquery that reaches the table. A table without a guard adds nothing; each guard runs and is
 * compiled once per table and alias, the first time the request reaches it.
 *
 * @example
 * const guards = RowGuards.of(map, { tenantId: 7 }, db.client)
 * guards.applyTo(query, 'posts', 'posts')           // where ("posts"."tenant_id" = ?)
 * guards.writeAnd(out, 'users', 'users_2')          //  and ("users_2"."tenant_id" = ?)
 */
export class RowGuards {
  private readonly compiled = new Map<string, GuardSql | null>()
  readonly map: RelationMap
  readonly context: unknown
  readonly client: Knex.Client

  private constructor(map: RelationMap, context: unknown, client: Knex.Client) {
    this.map = map
    this.context = context
    this.client = client
  }

  /**
   * The guards of `map` for `context`. The map's keys are not read here (only the tables the request
   * reaches are), so a map checked once by `defineRelationMap` is not walked again per request.
   */
  static of(map: RelationMap, context: unknown, client: Knex.Client): RowGuards {
    return new RowGuards(map, context, client)
  }

  /** Whether `table` has a guard: a row of it may be hidden even where a foreign key references it. */
  has(table: string): boolean {
    return this.map[table]?.guard !== undefined
  }

  /** Adds `table`'s guard to `query` as one parenthesised where (nothing for an unguarded table). */
  applyTo(query: Knex.QueryBuilder, table: string, alias: string): void {
    const guard = this.sql(table, alias)
    if (guard !== null) query.whereRaw(guard.sql, guard.bindings)
  }

  /** Appends ` and (…)`: `table`'s guard for the alias `alias`, when it has one that adds conditions. */
  writeAnd(out: SqlOut, table: string, alias: string): void {
    const guard = this.sql(table, alias)
    if (guard === null) return
    out.text(' and ')
    out.text(guard.sql)
    for (const binding of guard.bindings) out.bindings.push(binding)
  }

  /** `table`'s guard for `alias` as parenthesised SQL, or `null` when it has none or it adds nothing. */
  sql(table: string, alias: string): GuardSql | null {
    const key = `${table}\u0000${alias}`
    const known = this.compiled.get(key)
    if (known !== undefined) return known
    const result = this.compile(table, alias)
    this.compiled.set(key, result)
    return result
  }

  private compile(table: string, alias: string): GuardSql | null {
    const guard = this.map[table]?.guard
    if (guard === undefined) return null
    const conditions = this.client.queryBuilder()
    try {
      guard(conditions, { table: alias, context: this.context })
    } catch (error) {
      throw guardError(table, error)
    }
    const other = clauseOtherThanWhere(conditions)
    if (other !== undefined) throw guardError(table, new Error(`a guard may only add where conditions, not '${other}'`))
    const { sql, bindings, undefinedColumns } = compileWhere(conditions)
    if (undefinedColumns.length > 0)
      throw guardError(table, new Error(`undefined value compared with ${undefinedColumns.join(', ')}`))
    return sql.startsWith(WHERE) ? { sql: `(${sql.slice(WHERE.length)})`, bindings } : null
  }
}

function guardError(table: string, error: unknown): GuardError {
  return new GuardError(table, error)
}
