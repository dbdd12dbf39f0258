import type { Knex } from 'knex'
import { QueryParamsError } from '../errors/query-params-error.ts'
import { clientColumn, databaseColumn } from '../map/columns.ts'
import type { RelationMap } from '../relation-map.ts'
import type { QueryPlan } from '../validate/query-plan.ts'
import type { Identifiers } from '../sql/identifiers.ts'
import { selectedValues } from '../knex/builder-state.ts'
import { BuilderSlot } from '../knex/builder-slot.ts'

/**
 * Sets the select list: `distinct` (with any `columns`) as `SELECT DISTINCT`, else the client's
 * `columns`, else the caller's own select, else every allow-listed column — never `*`. Columns are
 * selected under the client's names (`"ArtistId" as "artistId"` for an aliased one). Adds the keys eager
 * loading needs (`keyColumns`, database columns) when missing, under their client names when the map
 * declares them, and returns those names, to be removed from the rows later.
 */
export function applySelection(
  builder: Knex.QueryBuilder,
  names: Identifiers,
  ref: string,
  plan: QueryPlan,
  map: RelationMap,
  keyColumns: readonly string[],
): string[] {
  const keys = keyColumns.map((column) => clientColumn(map, plan.table, column) ?? column)
  if (plan.distinct !== undefined) {
    const selected = [...new Set([...plan.distinct, ...(plan.columns ?? [])])]
    const missing = keys.filter((key) => !selected.includes(key))
    if (missing.length > 0) {
      throw new QueryParamsError(
        `Parameter 'distinct': loading these relations needs ${missing.join(', ')} among the distinct columns.`,
        {
          code: 'invalid_distinct',
          param: 'distinct',
          allowed: selected,
        },
      )
    }
    builder.clearSelect().distinct(selectList(builder.client, names, ref, selected, map, plan.table, false))
    return []
  }
  if (plan.columns !== undefined) {
    const extra = keys.filter((key) => !plan.columns?.includes(key))
    builder
      .clearSelect()
      .select(selectList(builder.client, names, ref, [...new Set(plan.columns), ...extra], map, plan.table, false))
    return extra
  }
  const callerColumns = callerSelection(builder)
  if (callerColumns !== undefined) {
    if (callerColumns.includes('*') || callerColumns.includes(`${ref}.*`)) return []
    const selectedAlready = (key: string, column: string): boolean =>
      [key, column, `${ref}.${key}`, `${ref}.${column}`].some((name) => callerColumns.includes(name))
    const extra = keys.filter((key, index) => !selectedAlready(key, keyColumns[index] ?? key))
    if (extra.length > 0) builder.select(selectList(builder.client, names, ref, extra, map, plan.table, false))
    return extra
  }
  const allowed = allowedColumns(map, plan.table)
  const extra = keys.filter((key) => !allowed.includes(key))
  const columns = extra.length === 0 ? allowed : [...allowed, ...extra]
  builder.select(selectList(builder.client, names, ref, columns, map, plan.table, columns === allowed))
  return extra
}

/** Column lists this library selected, on the raw fragment that holds them. */
const listedColumns = new BuilderSlot<{ ref: string; columns: readonly string[] }, Knex.Raw>()

/**
 * `"users"."id", "users"."name"` as one raw fragment: knex compiles it far faster than a list of names.
 * `columns` are client names; an aliased one is selected as `"albums"."ArtistId" as "artistId"`.
 */
function selectList(
  client: Knex.Client,
  names: Identifiers,
  ref: string,
  columns: readonly string[],
  map: RelationMap,
  table: string,
  stable: boolean,
): Knex.Raw {
  const list = hasAliases(map, table)
    ? columns
        .map((name) => {
          const column = databaseColumn(map, table, name)
          return column === name ? names.column(ref, name) : names.columnAs(ref, column, name)
        })
        .join(', ')
    : names.columnList(ref, columns, stable)
  const raw = client.raw(list)
  listedColumns.set(raw, { ref, columns })
  return raw
}

const aliasing = new WeakMap<RelationMap, Map<string, boolean>>()

/** Whether any column of `table` is declared under another name than its database column (memoised per map object). */
function hasAliases(map: RelationMap, table: string): boolean {
  let byTable = aliasing.get(map)
  if (byTable === undefined) aliasing.set(map, (byTable = new Map()))
  let aliased = byTable.get(table)
  if (aliased === undefined)
    byTable.set(
      table,
      (aliased = Object.keys(map[table]?.columns ?? {}).some((name) => databaseColumn(map, table, name) !== name)),
    )
  return aliased
}

const allowed = new WeakMap<RelationMap, Map<string, readonly string[]>>()

/** The allow-listed columns of `table`, in map order (memoised per map object). */
function allowedColumns(map: RelationMap, table: string): readonly string[] {
  let byTable = allowed.get(map)
  if (byTable === undefined) allowed.set(map, (byTable = new Map()))
  let columns = byTable.get(table)
  if (columns === undefined) byTable.set(table, (columns = Object.keys(map[table]?.columns ?? {})))
  return columns
}

/**
 * The columns of `ref` this library listed in the select of `builder` (see {@link applySelection}), under the names
 * its rows carry them (the client names): the columns a read's rows hold whatever the driver returns.
 */
export function listedColumnsOf(builder: Knex.QueryBuilder, ref: string): Set<string> {
  const names = new Set<string>()
  for (const value of selectedValues(builder) ?? []) {
    const list = typeof value === 'object' && value !== null ? listedColumns.of(value as Knex.Raw) : undefined
    if (list?.ref === ref) for (const column of list.columns) names.add(column)
  }
  return names
}

function qualified(list: { ref: string; columns: readonly string[] } | undefined): string[] | undefined {
  return list?.columns.map((column) => `${list.ref}.${column}`)
}

function callerSelection(builder: Knex.QueryBuilder): string[] | undefined {
  return selectedValues(builder)?.flatMap((value) =>
    typeof value === 'object' && value !== null
      ? (qualified(listedColumns.of(value as Knex.Raw)) ?? [String(value)])
      : [String(value)],
  )
}
