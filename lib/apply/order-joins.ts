import type { Knex } from 'knex'
import { primaryKeyColumns } from '../map/columns.ts'
import { loadsOf } from '../map/relation-kinds.ts'
import type { RelationMap } from '../relation-map.ts'
import type { DirectRelation } from '../validate/resolved-relation.ts'
import { aliasFor } from '../sql/alias-scope.ts'
import { innerPath } from '../plan/inner-path.ts'
import { StatementMark } from '../knex/builder-state.ts'
import type { SqlWriter } from '../sql/sql-writer.ts'
import { keyEquality } from '../sql/key-equality.ts'

const NO_INNER_GROUPS: ReadonlySet<string> = new Set()

/**
 * The joins that orders through to-one relations need, one per relation path (`team`, `team.owner`), shared by
 * every order through that path. A belongsTo hop is an inner join while every hop so far is a `required`
 * belongsTo on a table without a guard (the related row always exists and is always visible), else a left
 * join. A hasOne or morphOne hop is two left joins: a derived table with the lowest key of the visible related
 * rows per parent (`select owner_id, min(id) as id from teams … group by owner_id`), built once, then the
 * related row by that key; a scalar subquery instead would run once per base row. No join ever drops or
 * multiplies rows of the base table.
 */
export class OrderJoins {
  /** The join clauses written so far, to add to the query as one raw join. */
  readonly out: SqlWriter
  private readonly ref: string
  private readonly map: RelationMap
  private readonly aliases = new Map<string, string>()
  private readonly taken: Set<string>
  /** Whether an aggregate's grouped join groups by `+key` (see `PagePlan.groupedScan`). */
  readonly groupedScan: boolean
  /** The keys of the aggregates whose grouped join is an inner join (see `PagePlan.innerGroups`). */
  readonly innerGroups: ReadonlySet<string>

  constructor(
    out: SqlWriter,
    ref: string,
    taken: Iterable<string>,
    map: RelationMap,
    groupedScan = false,
    innerGroups: ReadonlySet<string> = NO_INNER_GROUPS,
  ) {
    this.out = out
    this.ref = ref
    this.map = map
    this.taken = new Set(taken)
    this.groupedScan = groupedScan
    this.innerGroups = innerGroups
  }

  /**
   * Whether orders through `via` can be joined: every hop references one row (a belongsTo), or picks the first of
   * its rows (a hasOne/morphOne) from a table with a one-column primary key (the key the derived table picks)
   * other than a one-column foreign key. A hasOne over a composite key is ordered by a scalar subquery.
   */
  joinable(via: readonly DirectRelation[]): boolean {
    return via.every((relation) => loadsOf(relation.type) === 'one' || firstRowKey(this.map, relation) !== undefined)
  }

  /** Whether every hop of `via` is an inner join: a `required` belongsTo to a table without a guard. */
  innerPath(via: readonly DirectRelation[]): boolean {
    return innerPath(this.map, via)
  }

  /** A name for another joined table (`kqp_aggregate`, `kqp_aggregate_2`…), unused by the query so far. */
  reserve(name: string): string {
    const alias = aliasFor(name, this.taken)
    this.taken.add(alias)
    return alias
  }

  /** The name the last table of `via` is joined as when every hop of it is joined already, else `undefined`. */
  joinedAs(via: readonly DirectRelation[]): string | undefined {
    if (via.length === 0) return undefined
    return this.aliases.get(via.map((relation) => `.${relation.name}`).join(''))
  }

  /** The name the last table of `via` is joined as, joining the hops not joined yet. */
  aliasOf(via: readonly DirectRelation[]): string {
    let previous = this.ref
    let path = ''
    via.forEach((relation, index) => {
      path += `.${relation.name}`
      let alias = this.aliases.get(path)
      if (alias === undefined) {
        const key = loadsOf(relation.type) === 'one' ? undefined : firstRowKey(this.map, relation)
        if (key !== undefined) {
          const inner = this.take(relation.table)
          const first = this.take(`${relation.table}_first`)
          alias = this.take(relation.table)
          writeFirstRowHop(this.out, relation, key, { inner, first, alias }, previous)
        } else {
          alias = this.take(relation.table)
          writeJoinHop(this.out, this.innerPath(via.slice(0, index + 1)) ? 'inner' : 'left', relation, alias, previous)
        }
        this.aliases.set(path, alias)
      }
      previous = alias
    })
    return previous
  }

  private take(name: string): string {
    const alias = aliasFor(name, this.taken)
    this.taken.add(alias)
    return alias
  }
}

/** The one-column primary key of a hasOne/morphOne relation's table that is not its foreign key, or `undefined`. */
function firstRowKey(map: RelationMap, relation: DirectRelation): string | undefined {
  if (relation.pivot !== undefined || relation.composite !== undefined) return undefined
  const key = primaryKeyColumns(map, relation.table)
  return key.length === 1 && key[0] !== relation.relatedKey ? key[0] : undefined
}

/**
 * A hasOne/morphOne hop as two left joins: the lowest `key` of the visible related rows per parent, grouped once
 * over the related table (`inner`, aliased `first`), then the related row with that key (`alias`).
 */
function writeFirstRowHop(
  out: SqlWriter,
  relation: DirectRelation,
  key: string,
  aliases: { inner: string; first: string; alias: string },
  parentRef: string,
): void {
  const { names } = out
  const { inner, first, alias } = aliases
  const foreign = names.column(inner, relation.relatedKey)
  if (out.sql !== '') out.text(' ')
  out.text(`left join (select ${foreign}, ${names.aliased(`min(${names.column(inner, key)})`, key)}`)
  out.text(` from ${names.table(relation.table, inner)} where ${foreign} is not null`)
  if (relation.morph !== undefined)
    out.text(` and ${names.column(inner, relation.morph.column)} = `).bind(relation.morph.value)
  out.guards?.writeAnd(out, relation.table, inner)
  out.text(` group by ${foreign})${names.aliased('', first)}`)
  out.text(` on ${names.column(first, relation.relatedKey)} = ${names.column(parentRef, relation.parentKey)}`)
  out.text(
    ` left join ${names.table(relation.table, alias)} on ${names.column(alias, key)} = ${names.column(first, key)}`,
  )
}

/** One belongsTo hop as a join: `left join "teams" on "teams"."id" = "users"."team_id"`. */
export function writeJoinHop(
  out: SqlWriter,
  kind: 'inner' | 'left',
  relation: DirectRelation,
  alias: string,
  parentRef: string,
): void {
  const { names } = out
  if (out.sql !== '') out.text(' ')
  out.text(`${kind} join ${names.table(relation.table, alias)} on ${keyEquality(names, relation, alias, parentRef)}`)
  // A guarded table is always left-joined: its guard goes in the ON clause, so a hidden row reads as NULL.
  out.guards?.writeAnd(out, relation.table, alias)
}

/** The joins `addOrderJoins` added for orders only (clones of the builder keep the mark). */
export const ORDER_JOINS = new StatementMark()

/** Adds the joins written in `joins` to `builder` as one raw join, marked as joins for orders only. */
export function addOrderJoins(builder: Knex.QueryBuilder, joins: OrderJoins): void {
  if (joins.out.sql === '') return
  builder.joinRaw(joins.out.sql, joins.out.bindings)
  ORDER_JOINS.markLast(builder)
}

/**
 * Removes from `builder` (changed in place: pass a clone) the joins that only orders needed. They neither
 * drop nor multiply rows, so a count without the order does not need them.
 */
export function dropOrderJoins(builder: Knex.QueryBuilder): Knex.QueryBuilder {
  return ORDER_JOINS.removeFrom(builder)
}
