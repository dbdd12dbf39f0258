import type { Knex } from 'knex'
import { schemaOf } from '../knex/builder-state.ts'
import { identifierQuotingOf, type IdentifierQuoting } from '../knex/client.ts'

/**
 * Identifiers quoted as the builder's knex client quotes them (its dialect and any `wrapIdentifier`
 * hook). Names come only from the relation map, so, without a hook (which may depend on the query
 * context), each client quotes each name once and remembers it.
 */
export class Identifiers {
  private readonly client: IdentifierQuoting
  private readonly queryContext: unknown
  private readonly columns: TwoLevelMemo | undefined
  private readonly tables: TwoLevelMemo | undefined
  private readonly lists: WeakMap<readonly string[], Map<string, string>> | undefined
  /** The builder's `withSchema`: the schema of every table named without one. */
  readonly schema: string | undefined

  private constructor(client: IdentifierQuoting, queryContext: unknown, remember: boolean, schema?: string) {
    this.client = client
    this.queryContext = queryContext
    this.schema = schema
    this.columns = remember ? new Map() : undefined
    this.tables = remember ? new Map() : undefined
    this.lists = remember ? new WeakMap() : undefined
  }

  /**
   * The quoting for `builder`. A builder given `withSchema('analytics')` gets its schema on every table named
   * without one, in every subquery and join the library writes.
   */
  static for(builder: Knex.QueryBuilder): Identifiers {
    const schema = schemaOf(builder)
    if (schema !== undefined) {
      const client = identifierQuotingOf(builder.client)
      return new Identifiers(client, client.hooked ? builder.queryContext() : undefined, !client.hooked, schema)
    }
    const known = shared.get(builder.client)
    if (known !== undefined) return known
    const client = identifierQuotingOf(builder.client)
    if (client.hooked) return new Identifiers(client, builder.queryContext(), false)
    const identifiers = new Identifiers(client, undefined, true)
    shared.set(builder.client, identifiers)
    return identifiers
  }

  /** `table.column` quoted: `"posts"."title"`. */
  column(table: string, column: string): string {
    const known = this.columns?.get(table)?.get(column)
    if (known !== undefined) return known
    return remember(this.columns, table, column, `${this.quote(table)}.${this.quote(column)}`)
  }

  /**
   * `"users"."id", "users"."name"`: `columns` of `table`, quoted and comma-separated. A `stable` array
   * (one that is never changed, such as a memoised allow-list) has its list remembered.
   */
  columnList(table: string, columns: readonly string[], stable: boolean): string {
    let byTable = stable ? this.lists?.get(columns) : undefined
    let list = byTable?.get(table)
    if (list !== undefined) return list
    list = ''
    for (const column of columns) list += list === '' ? this.column(table, column) : `, ${this.column(table, column)}`
    if (stable && this.lists !== undefined) {
      if (byTable === undefined) this.lists.set(columns, (byTable = new Map()))
      byTable.set(table, list)
    }
    return list
  }

  /** `table.column` quoted and selected under another name: `"albums"."ArtistId" as "artistId"`. */
  columnAs(table: string, column: string, name: string): string {
    return this.client.alias(this.column(table, column), this.quote(name))
  }

  /** An expression under a quoted name: `min("teams"."id") as "id"`, `(select …) as "teams_first"`. */
  aliased(expression: string, name: string): string {
    return this.client.alias(expression, this.quote(name))
  }

  /**
   * A table in a `from` or `join`: `"users"`, or `"users" as "users_2"` when `alias` differs; under a builder's
   * `withSchema`, `"analytics"."users"` (its columns still read `"users"."id"`).
   */
  table(table: string, alias: string): string {
    const known = this.tables?.get(table)?.get(alias)
    if (known !== undefined) return known
    const name = this.schema !== undefined && !table.includes('.') ? `${this.schema}.${table}` : table
    const quoted = alias === table ? this.quote(name) : this.client.alias(this.quote(name), this.quote(alias))
    return remember(this.tables, table, alias, quoted)
  }

  /** A name that is not a table (an alias, a derived column): `"kqp_key"`. */
  name(name: string): string {
    return this.quote(name)
  }

  /** A name quoted part by part, as knex quotes `schema.table`. */
  private quote(name: string): string {
    const quoted = name.includes('.')
      ? name
          .split('.')
          .map((part) => this.client.wrap(part.trim(), this.queryContext))
          .join('.')
      : this.client.wrap(name.trim(), this.queryContext)
    // The text becomes raw SQL, whose `?` are placeholders: a name must not contain one.
    if (quoted.includes('?'))
      throw new Error(`knex-query-params: the identifier '${name}' contains '?', which raw SQL reads as a binding`)
    return quoted
  }
}

type TwoLevelMemo = Map<string, Map<string, string>>

const shared = new WeakMap<Knex.Client, Identifiers>()

function remember(memo: TwoLevelMemo | undefined, first: string, second: string, value: string): string {
  if (memo === undefined) return value
  let inner = memo.get(first)
  if (inner === undefined) memo.set(first, (inner = new Map()))
  inner.set(second, value)
  return value
}
