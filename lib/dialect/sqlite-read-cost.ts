/** A better-sqlite3 statement, as far as the cost model uses it. */
interface CostStatement {
  all(bindings?: readonly unknown[]): unknown[]
  get(bindings?: readonly unknown[]): unknown
}

/** A better-sqlite3 connection, as far as the cost model uses it. */
export interface CostConnection {
  prepare(sql: string): CostStatement
}

/** One step of `explain query plan`, with the steps nested under it. */
interface PlanStep {
  readonly detail: string
  readonly children: PlanStep[]
}

/** What is known of a table: its rows, and per index the rows one equality on its first k columns reads. */
interface TableFacts {
  readonly rows: number
  /** By index name. */
  readonly indexes: ReadonlyMap<string, IndexFacts>
  readonly at: number
}

/** An index: rows per equality on its first k columns (`sqlite_stat1`, at k − 1), whether unique, its columns. */
interface IndexFacts {
  readonly perPrefix: readonly number[]
  readonly unique: boolean
  readonly width: number
  readonly primaryKey: boolean
}

/** Plans remembered per database, at most (least recently used first out). */
export const PLAN_CACHE_SIZE = 500
/** How long a table's facts and a statement's plan are kept before they are read again, in ms. */
const FRESH_MS = 60_000

const LOOP = /^(SCAN|SEARCH) (\S+)(?: AS \S+)?(?: EXISTS)?(?: USING (.*?))?(?: LEFT-JOIN| RIGHT-JOIN)?$/
const VIRTUAL = /^SCAN (\S+) VIRTUAL TABLE INDEX /
const ALIAS = /["`]?([\w$]+)["`]?\s+as\s+["`]?([\w$]+)["`]?/gi

/**
 * How many rows a SQLite statement reads, estimated from its `explain query plan` (issue 35 point 4): a `SEARCH` by
 * equality reads what `sqlite_stat1` says one key has when the table was analysed (one row through a unique key;
 * otherwise √rows), a `SCAN` or a range `SEARCH` the table's rows (`sqlite_stat1`, else `max(rowid)`, read again
 * after a minute), nested loops multiply, a correlated subquery's steps multiply by the rows of the loops around it,
 * a temporary b-tree adds the rows it sorts, and a recursive step or a source of unknown size is `Infinity`.
 * A loop over a subquery's rows (`SCAN (subquery-1)`) reads no table: its rows count where the subquery made them.
 * One per database: plans are kept per SQL text (the bindings do not change a plan's shape), {@link PLAN_CACHE_SIZE}
 * at most.
 */
export class SqliteReadCost {
  readonly #plans = new Map<string, { steps: PlanStep[]; aliases: Map<string, string>; at: number }>()
  readonly #tables = new Map<string, TableFacts>()
  #analysed: { stats: Map<string, string[]>; at: number } | undefined
  #version: number | undefined
  readonly #versions = new WeakMap<CostConnection, CostStatement>()
  /** Statements explained (not found in the cache): for tests and benchmarks. */
  explained = 0

  /** Plans kept now. */
  get cachedPlans(): number {
    return this.#plans.size
  }

  /** The estimated rows `sql` reads on `connection`, or `undefined` when SQLite cannot explain it. */
  rows(connection: CostConnection, sql: string, bindings: readonly unknown[]): number | undefined {
    const now = Date.now()
    // A table or index created or dropped (or statistics gathered the first time) forgets every plan and fact.
    let versionOf = this.#versions.get(connection)
    if (versionOf === undefined) {
      versionOf = connection.prepare('pragma schema_version')
      this.#versions.set(connection, versionOf)
    }
    const { schema_version: version } = versionOf.get() as { schema_version: number }
    if (version !== this.#version) {
      this.#version = version
      this.#plans.clear()
      this.#tables.clear()
      this.#analysed = undefined
    }
    let plan = this.#plans.get(sql)
    if (plan !== undefined) {
      this.#plans.delete(sql)
      if (now - plan.at > FRESH_MS) plan = undefined
    }
    if (plan === undefined) {
      const steps = explain(connection, sql, bindings)
      if (steps === undefined) return undefined
      this.explained += 1
      plan = { steps, aliases: aliasesOf(sql), at: now }
      if (this.#plans.size >= PLAN_CACHE_SIZE) this.#plans.delete(this.#plans.keys().next().value as string)
    }
    this.#plans.set(sql, plan)
    const { aliases } = plan
    const sources = new Map<string, number>()
    const facts = (name: string): TableFacts | undefined => this.#facts(connection, aliases.get(name) ?? name, now)
    return costOf(plan.steps, facts, sources).read
  }

  #facts(connection: CostConnection, table: string, now: number): TableFacts | undefined {
    const known = this.#tables.get(table)
    if (known !== undefined && now - known.at <= FRESH_MS) return known
    const analysed = this.#stats(connection, now)
    let facts: TableFacts | undefined
    try {
      facts = readFacts(connection, table, analysed.stats, now)
    } catch {
      facts = undefined
    }
    if (facts === undefined) this.#tables.delete(table)
    else this.#tables.set(table, facts)
    return facts
  }

  #stats(connection: CostConnection, now: number): { stats: Map<string, string[]> } {
    if (this.#analysed !== undefined && now - this.#analysed.at <= FRESH_MS) return this.#analysed
    const stats = new Map<string, string[]>()
    try {
      const rows = connection.prepare('select tbl, idx, stat from sqlite_stat1').all() as Array<{
        tbl: string
        idx: string | null
        stat: string
      }>
      for (const { tbl, idx, stat } of rows) stats.set(`${tbl}\u0000${idx ?? ''}`, stat.split(' '))
    } catch {
      // not analysed: no sqlite_stat1
    }
    this.#analysed = { stats, at: now }
    return this.#analysed
  }
}

function explain(connection: CostConnection, sql: string, bindings: readonly unknown[]): PlanStep[] | undefined {
  let lines: Array<{ id: number; parent: number; detail: string }>
  try {
    lines = connection.prepare(`explain query plan ${sql}`).all(bindings) as typeof lines
  } catch {
    return undefined
  }
  const top: PlanStep[] = []
  const byId = new Map<number, PlanStep>()
  for (const { id, parent, detail } of lines) {
    const step: PlanStep = { detail, children: [] }
    byId.set(id, step)
    ;(byId.get(parent)?.children ?? top).push(step)
  }
  return top
}

/** The tables the SQL names under an alias (`"posts" as "p2"`), by alias: the plan names aliases. */
function aliasesOf(sql: string): Map<string, string> {
  const aliases = new Map<string, string>()
  for (const [, table, alias] of sql.matchAll(ALIAS))
    if (table !== undefined && alias !== undefined) aliases.set(alias, table)
  return aliases
}

function readFacts(
  connection: CostConnection,
  table: string,
  stats: Map<string, string[]>,
  now: number,
): TableFacts | undefined {
  const quoted = `"${table.replaceAll('"', '""')}"`
  const exists = connection
    .prepare("select 1 as one from sqlite_schema where type = 'table' and name = ?")
    .get([table]) as { one: number } | undefined
  if (exists === undefined) return undefined
  let rows: number | undefined
  for (const [key, stat] of stats) if (key.startsWith(`${table}\u0000`)) rows = Number(stat[0])
  if (rows === undefined) {
    try {
      const { last } = connection.prepare(`select max(rowid) as last from ${quoted}`).get() as { last: unknown }
      rows = Number(last ?? 0)
    } catch {
      // a table without rowid: counted (once a minute)
      rows = Number((connection.prepare(`select count(*) as n from ${quoted}`).get() as { n: unknown }).n)
    }
  }
  const indexes = new Map<string, IndexFacts>()
  const list = connection.prepare(`pragma index_list(${quoted})`).all() as Array<{
    name: string
    unique: number
    origin: string
  }>
  for (const { name, unique, origin } of list) {
    const stat = stats.get(`${table}\u0000${name}`)
    const width = connection.prepare(`pragma index_info("${name.replaceAll('"', '""')}")`).all().length
    indexes.set(name, {
      perPrefix: stat === undefined ? [] : stat.slice(1).map(Number),
      unique: unique === 1,
      width,
      primaryKey: origin === 'pk',
    })
  }
  return { rows: Number.isFinite(rows) ? Math.max(rows, 0) : Number.POSITIVE_INFINITY, indexes, at: now }
}

/** What a list of steps reads, and the rows its loops give (what a later `SCAN` of it reads). */
interface Cost {
  read: number
  out: number
}

function costOf(
  steps: readonly PlanStep[],
  facts: (name: string) => TableFacts | undefined,
  sources: Map<string, number>,
): Cost {
  let rows = 1
  let read = 0
  let loops = 0
  for (const step of steps) {
    const { detail } = step
    if (detail.startsWith('SCAN ') || detail.startsWith('SEARCH ')) {
      const each = loopRows(detail, facts, sources)
      rows *= Math.max(each, 1)
      // The rows of a co-routine or a materialised subquery were counted where they were made.
      if (!sources.has(LOOP.exec(detail)?.[2] ?? '')) read += rows
      loops += 1
    } else if (detail.startsWith('MULTI-INDEX OR')) {
      const each = step.children.reduce((sum, index) => sum + costOf(index.children, facts, sources).out, 0)
      rows *= Math.max(each, 1)
      read += rows
      loops += 1
    } else if (detail.startsWith('CORRELATED ')) {
      read += rows * costOf(step.children, facts, sources).read
    } else if (detail.startsWith('USE TEMP B-TREE')) {
      read += rows
    } else if (detail.startsWith('RECURSIVE STEP')) {
      return { read: Number.POSITIVE_INFINITY, out: Number.POSITIVE_INFINITY }
    } else if (detail.startsWith('CO-ROUTINE ') || detail.startsWith('MATERIALIZE ')) {
      const inner = costOf(step.children, facts, sources)
      sources.set(detail.slice(detail.indexOf(' ') + 1), inner.out)
      read += inner.read
    } else if (detail.startsWith('COMPOUND QUERY')) {
      const parts = step.children.map((part) => costOf(part.children, facts, sources))
      read += parts.reduce((sum, part) => sum + part.read, 0)
      rows *= Math.max(
        parts.reduce((sum, part) => sum + part.out, 0),
        1,
      )
      loops += 1
    } else if (step.children.length > 0) {
      read += costOf(step.children, facts, sources).read
    }
  }
  return { read, out: loops === 0 ? 1 : rows }
}

/** The rows one run of a `SCAN` or `SEARCH` step reads. */
function loopRows(
  detail: string,
  facts: (name: string) => TableFacts | undefined,
  sources: Map<string, number>,
): number {
  if (detail === 'SCAN CONSTANT ROW') return 1
  const virtual = VIRTUAL.exec(detail)
  if (virtual !== null) return facts(virtual[1] ?? '')?.rows ?? Number.POSITIVE_INFINITY
  const match = LOOP.exec(detail)
  if (match === null) return Number.POSITIVE_INFINITY
  const [, kind, name = '', using = ''] = match
  const source = sources.get(name)
  const table = source === undefined ? facts(name) : undefined
  const all = source ?? table?.rows ?? Number.POSITIVE_INFINITY
  if (kind === 'SCAN') return all
  const open = using.indexOf('(')
  if (open === -1) return all
  const terms = using.slice(open + 1, using.lastIndexOf(')')).split(' AND ')
  const equal = terms.filter((term) => term.includes('=') && !/[<>]/.test(term)).length
  const range = terms.length > equal
  if (equal === 0) return all
  if (using.startsWith('INTEGER PRIMARY KEY')) return range ? all : 1
  if (using.startsWith('AUTOMATIC')) return Math.min(all, Math.max(1, Math.sqrt(all)))
  const indexName = /INDEX (\S+)/.exec(using)?.[1] ?? (using.startsWith('PRIMARY KEY') ? primaryKeyIndex(table) : '')
  const index = table?.indexes.get(indexName)
  const analysed = index?.perPrefix[equal - 1]
  if (analysed !== undefined && Number.isFinite(analysed)) return Math.min(all, Math.max(1, analysed))
  if (!range && index?.unique === true && equal >= index.width) return 1
  return Math.min(all, Math.max(1, Math.sqrt(all)))
}

function primaryKeyIndex(table: TableFacts | undefined): string {
  for (const [name, index] of table?.indexes ?? []) if (index.primaryKey) return name
  return ''
}
