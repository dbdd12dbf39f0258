import type { Knex } from 'knex'
import type { TestDatabaseName } from '../../support/databases.ts'

/** A query plan reduced to what the plan tests read: one line per step, as the database words it. */
export interface PlanLines {
  lines: string[]
  text: string
}

interface PgNode {
  'Node Type': string
  'Relation Name'?: string
  'Index Name'?: string
  'Scan Direction'?: string
  Plans?: PgNode[]
}

function pgLines(node: PgNode, depth = 0): string[] {
  const where = [node['Scan Direction'], node['Index Name'] ?? node['Relation Name']]
    .filter((part) => part !== undefined)
    .join(' ')
  return [
    `${'  '.repeat(depth)}${node['Node Type']}${where === '' ? '' : ` (${where})`}`,
    ...(node.Plans ?? []).flatMap((child) => pgLines(child, depth + 1)),
  ]
}

/**
 * The plan of `query` (a builder, or compiled SQL with knex's `?` placeholders) on its database: PostgreSQL's `explain (format json)` as node lines
 * (`Index Scan (Backward plan_events_created_at)`), MariaDB's `explain` as one line per table with its key
 * and `Extra`, SQLite's `explain query plan` details (`SCAN plan_events USING INDEX …`).
 */
export async function explainPlan(
  db: Knex,
  name: TestDatabaseName,
  query: Knex.QueryBuilder | Knex.Sql,
): Promise<PlanLines> {
  const { sql, bindings } = 'toSQL' in query ? query.toSQL() : query
  let lines: string[]
  if (name === 'postgres') {
    const result = (await db.raw(`explain (format json) ${sql}`, bindings)) as { rows: Array<Record<string, unknown>> }
    let plan = Object.values(result.rows[0] ?? {})[0]
    if (typeof plan === 'string') plan = JSON.parse(plan)
    lines = pgLines((plan as Array<{ Plan: PgNode }>)[0]?.Plan as PgNode)
  } else if (name === 'mysql') {
    const [rows] = (await db.raw(`explain ${sql}`, bindings)) as [Array<Record<string, unknown>>]
    lines = rows.map(
      (row) =>
        `${String(row.select_type)} ${String(row.table)} type=${String(row.type)} key=${String(row.key)} extra=${String(row.Extra)}`,
    )
  } else {
    const rows = (await db.raw(`explain query plan ${sql}`, bindings)) as Array<{ detail: string }>
    lines = rows.map((row) => row.detail)
  }
  return { lines, text: lines.join('\n') }
}

/**
 * SQLite's plan of a page read through the frequency guard (`lib/apply/frequency-guarded-page.ts`), split into its two
 * branches: `list`, the lines of the form that lists the key's related rows (the one that reads rows for a
 * rare key), and `walk`, those of the form that walks the page's order (its limit is 0 then).
 */
export function guardedBranches(plan: PlanLines): { list: string[]; walk: string[] } {
  const left = plan.lines.indexOf('LEFT')
  const right = plan.lines.indexOf('RIGHT')
  if (left === -1 || right < left) throw new Error(`not a guarded page:\n${plan.text}`)
  return { list: plan.lines.slice(left + 1, right), walk: plan.lines.slice(right + 1) }
}

/** The `limit` of the walking branch of a guarded page on SQLite: `case when <the key's 1,000th related row> is not null then ? else 0 end`. */
export const WALK_LIMIT =
  /limit case when \(select 1 from `[a-z_]+` where .* limit 1 offset 999\) is not null then \? else 0 end\) as `kqp_walk`/
