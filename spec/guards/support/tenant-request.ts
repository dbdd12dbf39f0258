import fc from 'fast-check'
import type { ClientScalar, Operator, Order, QueryParams, WhereDescription } from '../../../lib/query-params.ts'
import type { ColumnSpec, RelationMap } from '../../../lib/relation-map.ts'
import { relationsOf } from '../../../lib/validate/relations-of.ts'
import type { TenantTable } from './tenant-data.ts'

/** One random request: a base table of the tenant map (without its prefix) and the client's params. */
export interface TenantRequest {
  table: TenantTable
  params: QueryParams
}

const BASES: readonly TenantTable[] = ['teams', 'users', 'posts', 'comments', 'tags', 'images']
const TO_ONE = new Set(['belongsTo', 'hasOne', 'morphOne'])
const WORDS = ['alpha', 'beta', 'merger', 'Zeta', 'a', 'team', '1']

interface Path {
  path: string
  table: string
}

const typeOf = (spec: ColumnSpec): string => (typeof spec === 'string' ? spec : spec.type)

/** Relation paths from `table` of at most `depth` hops; `toOne` keeps only belongsTo/hasOne/morphOne hops. */
function relationPaths(map: RelationMap, table: string, depth: number, toOne: boolean, prefix = ''): Path[] {
  if (depth === 0) return []
  const paths: Path[] = []
  for (const [name, relation] of relationsOf(map, table)) {
    if (relation.kind !== 'direct') continue
    if (toOne && !TO_ONE.has(relation.type)) continue
    const path = `${prefix}${name}`
    paths.push({ path, table: relation.table })
    paths.push(...relationPaths(map, relation.table, depth - 1, toOne, `${path}.`))
  }
  return paths
}

/** `name` or `path.name` for every allow-listed column reachable through `paths`. */
function columnPaths(map: RelationMap, table: string, paths: readonly Path[]): Array<{ column: string; type: string }> {
  const own = (at: string, prefix: string): Array<{ column: string; type: string }> =>
    Object.entries(map[at]?.columns ?? {}).map(([name, spec]) => ({ column: `${prefix}${name}`, type: typeOf(spec) }))
  return [...own(table, ''), ...paths.flatMap((path) => own(path.table, `${path.path}.`))]
}

function whereArbitrary(columns: ReadonlyArray<{ column: string; type: string }>): fc.Arbitrary<WhereDescription> {
  const integer = fc.integer({ min: -1, max: 40 })
  const text = fc.constantFrom(...WORDS)
  return fc
    .record({
      column: fc.constantFrom(...columns),
      operator: fc.constantFrom<Operator>('=', '!=', '<', '>=', 'like', 'in', 'notIn', 'between'),
      ints: fc.array(integer, { minLength: 2, maxLength: 3 }),
      texts: fc.array(text, { minLength: 2, maxLength: 3 }),
      nullValue: fc.boolean(),
      boolean: fc.constantFrom<'and' | 'or'>('and', 'or'),
    })
    .map(({ column, operator, ints, texts, nullValue, boolean }) => {
      const isText = column.type === 'string'
      const op: Operator = operator === 'like' && !isText ? '=' : operator
      const list: ClientScalar[] = isText ? texts : ints
      let value: ClientScalar | ClientScalar[]
      if (op === 'in' || op === 'notIn') value = list
      else if (op === 'between') value = [...list.slice(0, 2)].sort() as ClientScalar[]
      else if (op === 'like') value = `%${texts[0] ?? 'a'}%`
      else value = nullValue && (op === '=' || op === '!=') ? null : (list[0] ?? null)
      if (op === 'between' && !isText)
        value = [Math.min(ints[0] ?? 0, ints[1] ?? 0), Math.max(ints[0] ?? 0, ints[1] ?? 0)]
      return { column: column.column, operator: op, value, boolean }
    })
}

/**
 * Random valid requests over the tenant map `map` (tables named `<prefix><table>`): wheres on own and
 * related columns (up to two hops), `relationsExists` (morphTo included), orders by own and to-one related
 * columns, `with` paths up to three levels or `*`, and sometimes a page.
 */
export function tenantRequest(map: RelationMap, prefix: string): fc.Arbitrary<TenantRequest> {
  return fc.constantFrom(...BASES).chain((table) => {
    const full = `${prefix}${table}`
    const filterPaths = relationPaths(map, full, 2, false)
    const existsPaths = [
      ...filterPaths.map((path) => path.path),
      ...[...relationsOf(map, full)].filter(([, relation]) => relation.kind === 'morphTo').map(([name]) => name),
    ]
    const orderColumns = columnPaths(map, full, relationPaths(map, full, 2, true)).map((column) => column.column)
    const withPaths = ['*', ...relationPaths(map, full, 3, false).map((path) => path.path), ...existsPaths]
    return fc
      .record(
        {
          wheres: fc.array(whereArbitrary(columnPaths(map, full, filterPaths)), { maxLength: 3 }),
          relationsExists: fc.array(fc.constantFrom(...(existsPaths.length > 0 ? existsPaths : ['*'])), {
            maxLength: 2,
          }),
          orders: fc.array(
            fc.record({
              column: fc.constantFrom(...orderColumns),
              direction: fc.constantFrom<'asc' | 'desc'>('asc', 'desc'),
            }),
            { maxLength: 2 },
          ),
          with: fc.uniqueArray(fc.constantFrom(...withPaths), { maxLength: 3 }),
          page: fc.option(fc.record({ limit: fc.integer({ min: 1, max: 8 }), page: fc.integer({ min: 1, max: 3 }) }), {
            nil: undefined,
          }),
        },
        { requiredKeys: ['wheres', 'orders', 'with'] },
      )
      .map(({ wheres, relationsExists, orders, with: paths, page }) => {
        // Without a limit the library adds no tie-breaker; the spec adds one, so equal orders compare in one order.
        const tieBroken: Order[] = orders.length > 0 ? [...orders, { column: 'id', direction: 'asc' }] : []
        const params: QueryParams = { wheres, orders: tieBroken, with: paths }
        if (relationsExists !== undefined && existsPaths.length > 0 && relationsExists.length > 0)
          params.relationsExists = relationsExists
        if (page !== undefined) {
          params.limit = page.limit
          params.page = page.page
        }
        return { table, params }
      })
  })
}
