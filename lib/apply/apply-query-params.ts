import type { Knex } from 'knex'
import { dialectOf } from '../dialect/dialect-of.ts'
import { jsonReadOptions, readAsJson } from '../dialect/json-read-options.ts'
import { parentKeysFor } from '../eager-load/keys.ts'
import type { ContextOptions } from '../map/context-options.ts'
import { ensureValidRelationMap } from '../map/validate-relation-map.ts'
import { APPLY_DEFAULTS, withDefaults, type ApplyOptions } from '../options.ts'
import type { QueryParams } from '../query-params.ts'
import type { RelationMap } from '../relation-map.ts'
import type { FrequencyGuard } from '../dialect/dialect.ts'
import type { QueryPlan } from '../validate/query-plan.ts'
import { validateQueryParams } from '../validate/validate-query-params.ts'
import { applySelection } from './apply-selection.ts'
import { selectAggregates } from './select-aggregates.ts'
import { attachEagerLoading } from './attach-eager-loading.ts'
import { Identifiers } from '../sql/identifiers.ts'
import { RowGuards } from '../guard/row-guards.ts'
import { SqlWriter } from '../sql/sql-writer.ts'
import { tableReference } from './table-reference.ts'
import { writeCondition } from '../sql/write-condition.ts'
import { writeOrders } from './write-orders.ts'
import { groupWheres, joinedTables, limitOf, selectedValues, statementCount } from '../knex/builder-state.ts'
import { statementCopy } from '../knex/builder-methods.ts'
import type { ReadAs } from './attach-row-reading.ts'
import { addOrderJoins, OrderJoins } from './order-joins.ts'
import { chooseBySelectivity, chooseKeyFirst, type KeyFirstChooser } from '../plan/relation-filter-form.ts'
import { callerProbe } from '../sql/caller-probe.ts'
import { columnTestsFirst } from '../plan/column-tests-first.ts'
import { orderCutoffOf, type OrderCutoff } from './order-cutoff.ts'
import { attachPageRewrite, pageRewriteFor } from './page-rewrite.ts'
import { pageDialect } from '../plan/page-dialect.ts'
import type { GuardedForms } from './frequency-guarded-page.ts'
import { primaryKeyColumns } from '../map/columns.ts'
import { applySearch } from './apply-search.ts'
import { recordSeek, seekColumnsOf } from './seek-orders.ts'
import { planHoldsKeyFirstFilter } from '../plan/holds-key-first-filter.ts'

/**
 * The longest `frequencyMemoMs` (a day): past it, a key that became common would be read in the wrong form for too
 * long.
 */
const MAX_MEMO_MS = 86_400_000

/**
 * Applies a client's query params to a knex query and returns a **new** builder (the input is not
 * changed). Every column, relation and scope must be allow-listed in `relationMap`; the client's
 * conditions form one parenthesised group, so an `or` never widens the caller's own `where`.
 * Each table's `guard` (with `options.context`) applies to the base table and wherever the request
 * reaches a table: relation filters, `relationsExists`, relation orders and every eager-load query.
 * Awaiting the result gives the rows with the `with` relations attached. The builder keeps the record
 * and result types of the one passed in (`db<Post>('posts')` resolves to `Post[]`); see `TableRecord`
 * for a record type with the map's relations.
 *
 * The relation map is checked the first time this sees it (see `defineRelationMap`). When the map's guards
 * read a context (`RelationMap<{ tenantId: number }>`), `options` and its `context` are required by the
 * types (see `ContextOptions`).
 *
 * @throws {QueryParamsError} status 400 for anything the client may not do.
 * @throws {Error} for a mistake in the relation map, naming its path: a server bug, never a 400.
 * @example
 * const params = parseQueryParams(req.url)
 * const posts = await applyQueryParams(db<Post>('posts'), params, relationMap, { context: { tenantId } }) // Post[]
 */
export function applyQueryParams<TRecord extends {}, TResult, Context = unknown>(
  query: Knex.QueryBuilder<TRecord, TResult>,
  params: QueryParams,
  relationMap: RelationMap<Context>,
  ...[given]: ContextOptions<ApplyOptions<Context>, Context>
): Knex.QueryBuilder<TRecord, TResult> {
  const options: ApplyOptions<Context> = given ?? {}
  const dialect = dialectOf(query.client, options.dialect)
  ensureValidRelationMap(relationMap)
  const settings = withDefaults(APPLY_DEFAULTS, options)
  const { table, ref } = tableReference(query, options.table)
  const plan = validateQueryParams(params, table, relationMap, settings)
  if (!(settings.frequencyMemoMs >= 0 && settings.frequencyMemoMs <= MAX_MEMO_MS))
    throw new RangeError(
      `knex-query-params: frequencyMemoMs must be a number of milliseconds from 0 to ${MAX_MEMO_MS}, got ` +
        `${settings.frequencyMemoMs}`,
    )
  const builder = query.clone()
  const names = Identifiers.for(builder)
  const guards = RowGuards.of(relationMap, options.context, builder.client)

  groupWheres(builder)
  guards.applyTo(builder, table, ref)
  for (const scope of plan.scopes) {
    const before = statementCount(builder)
    scope(builder)
    groupWheres(builder, before)
  }
  let guarded: GuardedForms | undefined
  if (plan.wheres.length > 0 || plan.exists.length > 0) {
    const paged = plan.limit !== undefined || limitOf(builder) !== undefined
    const choose = dialect.filteredRelation === 'by-selectivity' ? chooseBySelectivity(relationMap, paged) : undefined
    const first = plan.orders[0]
    const orderedBy = first !== undefined && first.via.length === 0 ? first.column : undefined
    const writer = new SqlWriter(
      names,
      dialect,
      settings.like,
      guards,
      choose,
      chooseKeyFirst(relationMap, dialect, ref, orderedBy),
    )
    const guard = paged ? dialect.frequencyGuard : undefined
    if (guard !== undefined) writer.keyLists = { base: ref, orderedBy, lists: [], served: false }
    const list = clientConditions(plan, ref, writer).toRaw(builder.client)
    builder.whereRaw(list)
    const keyFirst = guard !== undefined && planHoldsKeyFirstFilter(relationMap, plan)
    if (guard !== undefined && keyFirst)
      guarded = guardedForms(
        builder.client,
        plan,
        ref,
        writer,
        list,
        guard,
        chooseKeyFirst(relationMap, dialect, ref, undefined, true),
      )
  }
  const ownSelection =
    plan.distinct !== undefined || plan.columns !== undefined || selectedValues(builder) === undefined
  const strip = applySelection(builder, names, ref, plan, relationMap, parentKeysFor(plan.with))
  const search =
    plan.search === undefined
      ? undefined
      : applySearch(builder, new SqlWriter(names, dialect, 'insensitive', guards), plan.search, ref, table)
  let cutoff: OrderCutoff | undefined
  let joins: OrderJoins | undefined
  if (plan.orders.length > 0) {
    const orders = new SqlWriter(names, dialect, settings.like, guards)
    joins = selectsEveryColumn(builder)
      ? undefined
      : new OrderJoins(orders.fresh(), ref, tablesOf(builder, table, ref), relationMap)
    writeOrders(orders, ref, plan.orders, relationMap, joins, search)
    if (dialect.cutoffJoinedOrder) cutoff = orderCutoffOf(names, table, ref, plan.orders[0], joins, dialect.orderedJoin)
    if (joins !== undefined) addOrderJoins(builder, joins)
    builder.orderByRaw(orders.toRaw(builder.client))
  }
  selectAggregates(builder, new SqlWriter(names, dialect, settings.like, guards), ref, plan, relationMap, joins)
  recordSeek(
    builder,
    { plan, params, context: options.context, map: relationMap, ref, joins },
    () => new SqlWriter(names, dialect, settings.like, guards),
  )
  if (plan.limit !== undefined) builder.limit(plan.limit, { skipBinding: dialect.inlinePage })
  if (plan.offset !== undefined) builder.offset(plan.offset, { skipBinding: dialect.inlinePage })
  const keys = primaryKeyColumns(relationMap, table)
  const rewrite = pageRewriteFor(pageDialect(dialect, plan), names, ref, keys, cutoff, guarded)
  if (rewrite !== undefined) attachPageRewrite(builder, ref, rewrite)
  const readAs = ownSelection && options.values !== 'driver' ? readAsJsonWhileOwn(builder) : undefined
  attachEagerLoading(builder, {
    table,
    nodes: plan.with,
    map: relationMap,
    strip,
    guards,
    maxEagerRows: settings.maxEagerRows,
    bound: { timeout: options.timeout, signal: options.signal, retryTransient: options.retryTransient },
    values: settings.values,
    aggregates: plan.aggregates,
    readAs,
    frequencyMemoMs: rewrite?.probe === undefined ? undefined : settings.frequencyMemoMs,
    schema: names.schema,
  })
  return builder
}

/**
 * The client's wheres as one parenthesised group (each run joined by `and` with its column tests first: see
 * {@link columnTestsFirst}), then each `relationsExists`, AND-ed: one raw
 * fragment, which compiles to exactly the SQL of one where per part.
 */
function clientConditions(plan: QueryPlan, ref: string, out: SqlWriter): SqlWriter {
  const scope = new Set([ref])
  if (plan.wheres.length > 0) {
    out.text('(')
    columnTestsFirst(plan.wheres).forEach(({ boolean, condition }, index) => {
      if (index > 0) out.text(` ${boolean} `)
      writeCondition(out, condition, ref, scope)
    })
    out.text(')')
  }
  plan.exists.forEach((condition, index) => {
    if (index > 0 || plan.wheres.length > 0) out.text(' and ')
    writeCondition(out, condition, ref, scope)
  })
  return out
}

/**
 * The walking form of the client's conditions beside their listing form `list` (written by `listed`; `keyFirst`
 * when the walking form resolves keys first), for a guarded page (`Dialect.frequencyGuard`), or `undefined`
 * when the two are the same or the conditions hold no relation filter written key first, or more than one
 * (the probe would guard only one of them), or when the listing form already reads the page in order through
 * a pivot's index and the dialect says that serves every frequency (`orderedPivotServes`).
 */
function guardedForms(
  client: Knex.Client,
  plan: QueryPlan,
  ref: string,
  listed: SqlWriter,
  list: Knex.Raw,
  guard: FrequencyGuard,
  keyFirst: KeyFirstChooser | undefined,
): GuardedForms | undefined {
  const { names, dialect, like, guards } = listed
  const walker = new SqlWriter(names, dialect, like, guards, undefined, keyFirst)
  walker.keyLists = { base: ref, orderedBy: undefined, lists: [], served: false }
  walker.walk = guard.walkProbe
  const walk = clientConditions(plan, ref, walker).toRaw(client)
  const fromList = listed.keyLists?.lists ?? []
  const keyLists = fromList.length > 0 ? fromList : walker.keyLists.lists
  const [keyList] = keyLists
  if (
    keyList === undefined ||
    keyLists.length > 1 ||
    walker.sql === listed.sql ||
    (guard.orderedPivotServes && listed.keyLists?.served === true)
  )
    return undefined
  const keyProbe = keyList
    .fresh()
    .text('(')
    .append(keyList)
    .text(` limit 1 offset ${guard.cap - 1})`)
  const probe = callerProbe(keyProbe, plan.table, ref, guard.cap)
  const forms: GuardedForms = { list, walk, probe: probe.toRaw(client), at: guard.at, join: dialect.deferredPageJoin }
  if (guard.fencedList && keyFirst !== undefined) {
    const fencer = new SqlWriter(names, dialect, like, guards, undefined, keyFirst)
    fencer.fencedBase = ref
    const fenced = clientConditions(plan, ref, fencer)
    if (fenced.fenceWritten) forms.fenced = fenced.toRaw(client)
  }
  return forms
}

/** Whether the caller selected `*`, which a join would widen with the joined table's columns. */
function selectsEveryColumn(builder: Knex.QueryBuilder): boolean {
  return selectedValues(builder)?.includes('*') === true
}

/** The names the base query already uses (its table, alias, and the tables of the caller's joins). */
function tablesOf(builder: Knex.QueryBuilder, table: string, ref: string): string[] {
  const names = [table, ref]
  for (const joined of joinedTables(builder)) names.push(...joined.split(/\s+as\s+|\s+/i))
  return names
}

/**
 * Runs reads of `builder` with the driver's JSON-ready values (see `jsonReadOptions`) as long as it selects what
 * `applyQueryParams` selected: a column the caller selects afterwards comes as the driver gives it, so the
 * statement then runs without them. `undefined` where the driver has no such values.
 */
function readAsJsonWhileOwn(builder: Knex.QueryBuilder): ReadAs | undefined {
  if (jsonReadOptions(builder.client) === undefined) return undefined
  const selected = selectedValues(builder)?.length ?? 0
  return (self) =>
    (selectedValues(self)?.length ?? 0) - seekColumnsOf(self) === selected ? readAsJson(statementCopy(self)) : undefined
}
