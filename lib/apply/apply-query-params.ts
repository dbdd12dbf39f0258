import type { Knex } from 'knex'
import { dialectOf } from '../dialect/dialect-of.ts'
import { jsonReadOptions, readAsJson } from '../dialect/json-read-options.ts'
import { parentKeysFor } from '../eager-load/keys.ts'
import type { ContextOptions } from '../map/context-options.ts'
import { ensureValidRelationMap } from '../map/validate-relation-map.ts'
import { APPLY_DEFAULTS, withDefaults, type ApplyOptions } from '../options.ts'
import type { QueryParams } from '../query-params.ts'
import type { RelationMap } from '../relation-map.ts'
import type { PlannedAggregate, QueryPlan } from '../validate/query-plan.ts'
import { validateQueryParams } from '../validate/validate-query-params.ts'
import { applySelection } from './apply-selection.ts'
import { selectAggregates, writeSelectedAggregates } from './select-aggregates.ts'
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
import { callerProbe } from '../sql/caller-probe.ts'
import { listLengthProbe } from '../sql/list-length-probe.ts'
import { columnTestsFirst } from '../plan/column-tests-first.ts'
import { joinedHops, joinedHopsWhere } from './joined-hops-where.ts'
import { orderCutoffOf, type OrderCutoff } from './order-cutoff.ts'
import { joinAggregate, keptGroupsJoins } from './join-aggregate.ts'
import { writeAggregate } from '../sql/write-aggregate.ts'
import { attachPageRewrite, pageRewriteFor } from './page-rewrite.ts'
import type { GuardedForms } from './frequency-guarded-page.ts'
import type { CorrelatedOrders } from './correlated-order.ts'
import { joinedAggregateWhere } from './joined-aggregate-where.ts'
import type { BranchWalk, DisjunctionForms } from './disjunction-page.ts'
import { primaryKeyColumns } from '../map/columns.ts'
import { applySearch } from './apply-search.ts'
import { recordSeek, seekColumnsOf } from './seek-orders.ts'
import { planRead } from '../plan/plan-read.ts'
import { listingProbed } from '../plan/probed-list.ts'
import type { DisjunctionPlan, GuardPlan, PagePlan, ReadPlan } from '../plan/read-plan.ts'
import type { DialectSyntax } from '../dialect/dialect-roles.ts'
import type { ConditionStyle } from '../plan/condition-style.ts'
import { learnedBoth, NOTHING_LEARNED, type Learned } from '../sql/learned.ts'

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
  const read = planRead(plan, dialect, relationMap, {
    ref,
    paged: plan.limit !== undefined || limitOf(builder) !== undefined,
  })
  // Every writer of this request is a `fresh()` one of this (empty) writer: no closure is made per request.
  const writer = new SqlWriter(names, dialect, settings.like, guards)
  let guarded: GuardedForms | undefined
  let conditions: { listed: SqlWriter; list: Knex.Raw } | undefined
  if (read.conditions !== undefined) {
    const listed = writer.fresh()
    const learned = clientConditions(read.query, ref, listed, read.conditions)
    const list = listed.toRaw(builder.client)
    conditions = { listed, list }
    builder.whereRaw(list)
    const { guard } = read.page
    if (guard !== undefined)
      guarded = guardedForms(
        builder.client,
        read.query,
        ref,
        writer,
        { list, sql: listed.sql, learned },
        guard,
        dialect,
      )
  }
  const ownSelection =
    plan.distinct !== undefined || plan.columns !== undefined || selectedValues(builder) === undefined
  const strip = applySelection(builder, names, ref, plan, relationMap, parentKeysFor(plan.with))
  const search =
    plan.search === undefined
      ? undefined
      : applySearch(builder, new SqlWriter(names, dialect, 'insensitive', guards), plan.search, ref, table, read.plain)
  let cutoff: OrderCutoff | undefined
  let joins: OrderJoins | undefined
  let order: Knex.Raw | undefined
  if (plan.orders.length > 0) {
    const orders = writer.fresh()
    joins = selectsEveryColumn(builder)
      ? undefined
      : new OrderJoins(
          orders.fresh(),
          ref,
          tablesOf(builder, table, ref),
          relationMap,
          read.page.groupedScan,
          read.page.innerGroups,
        )
    writeOrders(orders, ref, plan.orders, relationMap, joins, search)
    if (read.page.cutoff !== undefined && joins !== undefined)
      cutoff = orderCutoffOf(names, table, ref, read.page.cutoff, joins)
    if (joins !== undefined && guarded === undefined) for (const via of read.page.filterHops) joins.aliasOf(via)
    if (joins !== undefined)
      for (const aggregate of read.page.joinedTests) joinAggregate(joins, aggregate, ref, relationMap)
    if (joins !== undefined) addOrderJoins(builder, joins)
    order = orders.toRaw(builder.client)
    builder.orderByRaw(order)
  }
  const selected = selectAggregates(builder, writer.fresh(), ref, plan, relationMap, joins)
  const { correlatedOrder } = read.page
  const correlated =
    correlatedOrder === undefined || joins === undefined || order === undefined
      ? undefined
      : correlatedOrders(builder.client, { plan, ref, map: relationMap, writer }, correlatedOrder, {
          baseTable: names.table(table, ref),
          order,
          select: selected,
          ...keptGroupsOf(correlatedOrder.kept, joins, plan.orders[0]?.aggregate, { ref, map: relationMap, writer }),
        })
  recordSeek(builder, { plan, params, context: options.context, map: relationMap, ref, joins }, writer)
  if (plan.limit !== undefined) builder.limit(plan.limit, { skipBinding: dialect.inlinePage })
  if (plan.offset !== undefined) builder.offset(plan.offset, { skipBinding: dialect.inlinePage })
  const keys = primaryKeyColumns(relationMap, table)
  const vias =
    cutoff === undefined || read.page.cutoff === undefined
      ? [...plan.orders.map((order) => order.via), ...read.page.filterHops]
      : read.page.cutoff.hops
  // A probed list's walking form is the plain one: it tests the hops the page joins as the plain form does.
  const probedWalk =
    guarded !== undefined && read.conditions?.toldLists !== undefined ? read.page.guard?.walk : undefined
  const joinedWhere =
    probedWalk !== undefined && guarded !== undefined && joins !== undefined
      ? joinedHopsWhere(
          builder.client,
          { list: guarded.walk, sql: guarded.walkSql },
          { ref, map: relationMap, style: probedWalk, vias },
          joins,
          (out, style, visible) => clientConditions(read.query, ref, out, style, visible),
          writer,
        )
      : conditions === undefined || joins === undefined || guarded !== undefined || read.conditions === undefined
        ? undefined
        : ((cutoff === undefined
            ? joinedAggregateWhere(
                builder.client,
                conditions.listed,
                conditions.list,
                { plan, ref, map: relationMap, writer },
                joins,
                read.page.joinedTests,
              )
            : undefined) ??
          joinedHopsWhere(
            builder.client,
            { list: conditions.list, sql: conditions.listed.sql },
            { ref, map: relationMap, style: read.conditions, vias },
            joins,
            (out, style, visible) => clientConditions(read.query, ref, out, style, visible),
            writer,
          ))
  const disjunction =
    conditions === undefined || order === undefined || guarded !== undefined
      ? undefined
      : disjunctionForms(
          builder.client,
          read,
          ref,
          writer,
          { list: conditions.list, order },
          cutoff === undefined || read.page.cutoff === undefined || joins === undefined
            ? undefined
            : joinedHops(ref, relationMap, read.page.cutoff.hops, joins),
        )
  const rewrite = pageRewriteFor(
    read.page,
    dialect,
    names,
    ref,
    keys,
    cutoff,
    guarded,
    correlated,
    joinedWhere,
    disjunction,
  )
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
 * Writes the client's wheres as one parenthesised group (each run joined by `and` with its column tests first: see
 * {@link columnTestsFirst}), then each `relationsExists`, AND-ed, in `style`: one raw fragment, which compiles to
 * exactly the SQL of one where per part. Returns what writing them learned.
 */
function clientConditions(
  plan: QueryPlan,
  ref: string,
  out: SqlWriter,
  style: ConditionStyle,
  visible: readonly string[] = [],
): Learned {
  const scope = new Set([ref, ...visible])
  let learned = NOTHING_LEARNED
  if (plan.wheres.length > 0) {
    out.text('(')
    columnTestsFirst(plan.wheres).forEach(({ boolean, condition }, index) => {
      if (index > 0) out.text(` ${boolean} `)
      learned = learnedBoth(learned, writeCondition(out, condition, ref, scope, style))
    })
    out.text(')')
  }
  plan.exists.forEach((condition, index) => {
    if (index > 0 || plan.wheres.length > 0) out.text(' and ')
    learned = learnedBoth(learned, writeCondition(out, condition, ref, scope, style))
  })
  return learned
}

/**
 * The walking form of the client's conditions beside their listing form (`listing`: its raw, its text, what it
 * learned), for a
 * guarded page (`guard`), or `undefined` when the two are the same or the conditions hold no relation filter written
 * key first, or more than one (the probe would guard only one of them), or when the listing form already reads the
 * page in order through a pivot's index and the dialect says that serves every frequency (`orderedPivotServes`).
 * The fenced listing form, where the plan has one, is written when a read first needs it (its probe chose the
 * listing form), once.
 */
function guardedForms(
  client: Knex.Client,
  plan: QueryPlan,
  ref: string,
  writer: SqlWriter,
  listing: { list: Knex.Raw; sql: string; learned: Learned },
  guard: GuardPlan,
  { deferredPageJoin: join }: Pick<DialectSyntax, 'deferredPageJoin'>,
): GuardedForms | undefined {
  const { list, learned: listed } = listing
  const walker = writer.fresh()
  const walked = clientConditions(plan, ref, walker, guard.walk)
  const keyLists = listed.keyLists.length > 0 ? listed.keyLists : walked.keyLists
  const [keyList] = keyLists
  if (
    keyList === undefined ||
    (keyLists.length > 1 && !guard.everyList) ||
    walker.sql === listing.sql ||
    (guard.orderedPivotServes && listed.served)
  )
    return undefined
  const probe = callerProbe(listLengthProbe(writer.fresh(), keyLists, guard.cap), plan.table, ref, guard.callerCap)
  const walk = walker.toRaw(client)
  const { fenced } = guard
  const walkSql = walker.sql
  if (fenced === undefined) return { list, walk, walkSql, probe: probe.toRaw(client), at: guard.at, join }
  let fence: Knex.Raw | undefined | null = null
  return {
    list,
    walk,
    walkSql,
    probe: probe.toRaw(client),
    at: guard.at,
    join,
    fenced: () => {
      if (fence === null) {
        const fencer = writer.fresh()
        fence = clientConditions(plan, ref, fencer, fenced).fenced ? fencer.toRaw(client) : undefined
      }
      return fence
    },
  }
}

/**
 * The client's conditions of a page read as the union of its branches (`read.page.disjunction`), as the query holds
 * them (`written`: the conditions and the orders) and as each branch (its wheres, then the `relationsExists`, in the
 * style of the client's conditions), or `undefined` for any other page (a page with a frequency guard keeps the
 * guard).
 */
function disjunctionForms(
  client: Knex.Client,
  read: ReadPlan,
  ref: string,
  writer: SqlWriter,
  written: Pick<DisjunctionForms, 'list' | 'order'>,
  joined: ReadonlyMap<string, string> | undefined,
): DisjunctionForms | undefined {
  const { disjunction } = read.page
  const style = read.conditions
  if (disjunction === undefined || style === undefined) return undefined
  const branch = (wheres: Readonly<QueryPlan['wheres']>, as: ConditionStyle, visible: readonly string[]): Knex.Raw => {
    const out = writer.fresh()
    clientConditions({ ...read.query, wheres: [...wheres] }, ref, out, as, visible)
    return out.toRaw(client)
  }
  const { walks } = disjunction
  if (walks !== undefined)
    return { ...written, ...walkedBranches(client, read.query, ref, { writer, style }, walks, disjunction) }
  const branches = disjunction.branches.map((wheres) => branch(wheres, style, []))
  if (joined === undefined) return { ...written, branches }
  const joinedStyle = Object.freeze({ ...style, joined })
  const aliases = [...joined.values()]
  return {
    ...written,
    branches,
    joined: disjunction.branches.map((wheres) => branch(wheres, joinedStyle, aliases)),
  }
}

/**
 * Each branch of a page read as the union of its `or`'s branches (`disjunction`, whose branches have two forms: see
 * `DisjunctionPlan.walks`), as written in the style of the client's conditions, and, for a branch with filters whose
 * lists a probe counts, its listed and walked forms and the probe of the lists' lengths (see `walkedBranch`), through
 * the caller's guards as a frequency guard's probe is (`callerProbe`). MariaDB writes the branch listed, its lists
 * told, and walks it in `walks.walk`'s style; SQLite writes it walked, and lists its one filter in the other form.
 */
function walkedBranches(
  client: Knex.Client,
  query: QueryPlan,
  ref: string,
  { writer, style }: { writer: SqlWriter; style: ConditionStyle },
  walks: NonNullable<DisjunctionPlan['walks']>,
  disjunction: DisjunctionPlan,
): Pick<DisjunctionForms, 'branches' | 'walks'> {
  const branches: Knex.Raw[] = []
  const walked: Array<BranchWalk | undefined> = []
  const written = (branch: QueryPlan, as: ConditionStyle): { raw: Knex.Raw; learned: Learned } => {
    const out = writer.fresh()
    const learned = clientConditions(branch, ref, out, as)
    return { raw: out.toRaw(client), learned }
  }
  disjunction.branches.forEach((wheres, index) => {
    const branch = { ...query, wheres: [...wheres] }
    const filters = walks.filters[index]
    const [first] = filters ?? []
    if (filters === undefined || first === undefined) {
      branches.push(written(branch, style).raw)
      walked.push(undefined)
      return
    }
    const { walk } = walks
    const listed = written(
      branch,
      walk === undefined
        ? { ...style, relationForm: listingProbed(style.relationForm, first), toldLists: filters }
        : { ...style, toldLists: filters },
    )
    const walking = walk === undefined ? written(branch, style) : written(branch, walk)
    branches.push(walk === undefined ? walking.raw : listed.raw)
    const { keyLists } = listed.learned
    if (keyLists.length !== filters.length) {
      walked.push(undefined)
      return
    }
    const rows = (query.offset ?? 0) + (query.limit ?? 0)
    const length = listLengthProbe(writer.fresh(), keyLists, Math.max(walks.cap, walks.perRow * rows))
    walked.push({
      listed: listed.raw,
      walked: walking.raw,
      probe: callerProbe(length, query.table, ref, walks.callerCap).toRaw(client),
      at: walks.at,
    })
  })
  return { branches, walks: walked }
}

/**
 * The orders of a page ordered by an aggregate (`written`: its order and selected aggregates as the query holds
 * them), with their correlated form, written once when a read first needs it: every order and selected aggregate
 * without the order joins (an aggregate a correlated subquery, a column through a relation a scalar subquery).
 */
function correlatedOrders(
  client: Knex.Client,
  request: { plan: QueryPlan; ref: string; map: RelationMap; writer: SqlWriter },
  probed: NonNullable<PagePlan['correlatedOrder']>,
  written: Pick<CorrelatedOrders, 'baseTable' | 'order' | 'select' | 'kept'>,
): CorrelatedOrders {
  const { plan, ref, map, writer } = request
  let made: ReturnType<CorrelatedOrders['correlated']> | undefined
  return {
    ...written,
    rows: probed.rows,
    ...(probed.listedOnly === true ? { listedOnly: true } : {}),
    correlated: () => {
      if (made === undefined) {
        const orders = writer.fresh()
        writeOrders(orders, ref, plan.orders, map)
        made = {
          order: orders.toRaw(client),
          select:
            plan.aggregates.length === 0
              ? undefined
              : writeSelectedAggregates(writer.fresh(), ref, plan, map, undefined).toRaw(client),
        }
      }
      return made
    },
  }
}

/**
 * The kept-groups joins of `PagePlan.correlatedOrder` where it has them (`kept`), for the first order's `aggregate`,
 * with the test that a base row has its related rows (the aggregate's `exists`, over the same rows).
 */
function keptGroupsOf(
  kept: boolean,
  joins: OrderJoins,
  aggregate: PlannedAggregate | undefined,
  request: { ref: string; map: RelationMap; writer: SqlWriter },
): Pick<CorrelatedOrders, 'kept'> {
  const joined = kept && aggregate !== undefined ? keptGroupsJoins(joins, aggregate) : undefined
  if (joined === undefined || aggregate === undefined) return {}
  const { ref, map, writer } = request
  const has = writer.fresh()
  writeAggregate(has, { ...aggregate, kind: 'exists' }, ref, new Set([ref]), map)
  return { kept: { ...joined, has: { sql: has.sql, bindings: has.bindings } } }
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
