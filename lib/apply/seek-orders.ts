import type { Knex } from 'knex'
import type { Dialect } from '../dialect/dialect.ts'
import { clientColumn, columnType, databaseColumn, primaryKeyColumns } from '../map/columns.ts'
import type { Row } from '../normalize/row-values.ts'
import type { QueryParams } from '../query-params.ts'
import type { ColumnType, RelationMap } from '../relation-map.ts'
import type { SqlWriter } from '../sql/sql-writer.ts'
import type { QueryPlan } from '../validate/query-plan.ts'
import type { PlannedOrder } from '../validate/resolve-order.ts'
import { columnFacts } from '../validate/column-facts.ts'
import type { OrderJoins } from './order-joins.ts'
import { changeReadState, readStateOf } from './read-state.ts'
import { writeOrders } from './write-orders.ts'

/**
 * One order of a page as a keyset reads it: the ordered value as SQL (what `order by` reads, with its bindings),
 * its direction, whether it can be NULL (NULLs sort as the smallest values), and its declared type.
 * `appended` marks a tie-breaker the query does not order by yet (a request without `limit` gets none).
 */
export interface SeekOrder {
  readonly sql: string
  readonly bindings: readonly Knex.Value[]
  readonly direction: 'asc' | 'desc'
  readonly nullable: boolean
  readonly type: ColumnType
  readonly appended: boolean
  /** The client name of the base table's column the order is, the key its rows carry it under when selected. */
  readonly column?: string
}

/** What `applyQueryParams` applied, as a keyset page needs it (see `cursorPaginate`). */
export interface Seek {
  readonly table: string
  readonly ref: string
  readonly dialect: Dialect
  /** The request as applied, to which a cursor is bound (its page keys aside). */
  readonly params: QueryParams
  /** The guard context the query was applied with. */
  readonly context: unknown
  /** The orders, then the tie-breaker that makes them total; written on first use. */
  orders(): readonly SeekOrder[]
}

/** What {@link recordSeek} records about one request. */
interface SeekSource {
  plan: QueryPlan
  params: QueryParams
  context: unknown
  map: RelationMap
  ref: string
  joins: OrderJoins | undefined
}

/**
 * Records on `builder` what {@link seekOf} returns; `writer`'s `fresh()` gives writers of the query's quoting and
 * guards. Nothing is written here: the orders are written with those writers on first use (a keyset page), not per
 * request.
 */
export function recordSeek(builder: Knex.QueryBuilder, source: SeekSource, writer: SqlWriter): void {
  changeReadState(builder, { seek: new RecordedSeek(source, writer) })
}

/** A {@link Seek} whose orders are written on first use (a class, so that no closure is made per request). */
class RecordedSeek implements Seek {
  readonly table: string
  readonly ref: string
  readonly params: QueryParams
  readonly context: unknown
  private readonly source: SeekSource
  private readonly writer: SqlWriter
  private written: readonly SeekOrder[] | undefined

  constructor(source: SeekSource, writer: SqlWriter) {
    this.table = source.plan.table
    this.ref = source.ref
    this.params = source.params
    this.context = source.context
    this.source = source
    this.writer = writer
  }

  get dialect(): Dialect {
    return this.writer.dialect
  }

  orders(): readonly SeekOrder[] {
    const { plan, map, ref, joins } = this.source
    this.written ??= [
      ...plan.orders.map((order) => seekOrder(this.writer.fresh(), order, ref, map, plan.table, joins, false)),
      ...tieBreakers(plan, map).map((order) =>
        seekOrder(this.writer.fresh(), order, ref, map, plan.table, joins, true),
      ),
    ]
    return this.written
  }
}

/** What `applyQueryParams` recorded on `builder` for a keyset page, or `undefined` for a builder it did not return. */
export function seekOf(builder: Knex.QueryBuilder): Seek | undefined {
  return readStateOf(builder).seek
}

/** Marks `copy` as selecting one more entry than `applyQueryParams` did: the position values of a keyset page. */
export function markSeekColumns(copy: Knex.QueryBuilder): void {
  changeReadState(copy, { seekColumns: 1 })
}

/** Makes a read of `copy` (a keyset page's) give `see` its rows as the driver returned them (see `finishRows`). */
export function seeRawRows(copy: Knex.QueryBuilder, see: (rows: Row[]) => void): void {
  changeReadState(copy, { seeRawRows: see })
}

/** The select entries {@link markSeekColumns} added to `builder` (0 or 1). */
export function seekColumnsOf(builder: Knex.QueryBuilder): number {
  return readStateOf(builder).seekColumns ?? 0
}

const DIRECTION_SUFFIX = / (?:asc|desc)(?: nulls (?:first|last))?$/

function seekOrder(
  out: SqlWriter,
  order: PlannedOrder,
  ref: string,
  map: RelationMap,
  table: string,
  joins: OrderJoins | undefined,
  appended: boolean,
): SeekOrder {
  writeOrders(out, ref, [order], map, joins)
  const ordered = order.via.at(-1)?.table ?? table
  const name = clientColumn(map, ordered, order.column)
  const spec = name === undefined ? undefined : map[ordered]?.columns[name]
  const type = order.aggregate?.type ?? (spec === undefined ? 'string' : columnType(spec))
  const nullable = order.aggregate?.nullable ?? order.nullable
  return {
    sql: out.sql.replace(DIRECTION_SUFFIX, ''),
    bindings: [...out.bindings],
    direction: order.direction,
    nullable,
    type,
    appended,
    ...(order.via.length === 0 && order.aggregate === undefined && name !== undefined ? { column: name } : {}),
  }
}

/**
 * The tie-breaker a request without `limit` did not get (see the validator's `addTieBreaker`): the primary key in
 * the direction of the last order, or with `distinct` the selected columns not ordered yet.
 */
function tieBreakers(plan: QueryPlan, map: RelationMap): PlannedOrder[] {
  if (plan.limit !== undefined || plan.offset !== undefined) return []
  if (plan.distinct === undefined && plan.orders.some((order) => order.total)) return []
  const ordered = new Set(
    plan.orders.filter((order) => order.via.length === 0 && order.aggregate === undefined).map((order) => order.column),
  )
  const key = primaryKeyColumns(map, plan.table)
  const selected = [...new Set([...(plan.distinct ?? []), ...(plan.columns ?? [])])].map((name) =>
    databaseColumn(map, plan.table, name),
  )
  const columns = plan.distinct === undefined || key.every((column) => selected.includes(column)) ? key : selected
  const direction = plan.orders.at(-1)?.direction ?? 'asc'
  return columns
    .filter((column) => !ordered.has(column))
    .map((column) => ({
      via: [],
      column,
      direction,
      nullable: columnFacts(map, plan.table, column).nullable,
      total: false,
    }))
}
