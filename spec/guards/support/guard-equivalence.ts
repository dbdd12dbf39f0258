import { expect } from 'chai'
import fc from 'fast-check'
import { applyQueryParams, countQuery } from '../../../lib/index.ts'
import type { TestDatabase } from '../../support/databases.ts'
import type { FuzzSettings } from '../../reliability/support/fuzz-settings.ts'
import { TENANT } from './tenant-data.ts'
import { orGuard, tenantGuard, tenantMap } from './tenant-map.ts'
import { tenantRequest, type TenantRequest } from './tenant-request.ts'
import { BOTH, ONLY, tenantTables } from './tenant-tables.ts'

const guardedMaps = { plain: tenantMap(BOTH, tenantGuard), or: tenantMap(BOTH, orGuard) }
const unguardedMap = tenantMap(ONLY)

type Rows = Array<Record<string, unknown>>

const byId = (rows: Rows): Rows => [...rows].sort((a, b) => Number(a.id) - Number(b.id))

/** The rows and the count of one request, with and without guards, in a form that compares exactly. */
async function bothSides(
  db: TestDatabase,
  { table, params }: TenantRequest,
  style: 'plain' | 'or',
): Promise<[{ rows: Rows; total: number }, unknown]> {
  const guarded = applyQueryParams(db.knex(`${BOTH}${table}`), params, guardedMaps[style], {
    context: { tenantId: TENANT },
  })
  const unguarded = applyQueryParams(db.knex(`${ONLY}${table}`), params, unguardedMap)
  const ordered = (params.orders?.length ?? 0) > 0
  const side = async (query: typeof guarded): Promise<{ rows: Rows; total: number }> => {
    const rows = (await query) as Rows
    const [count] = (await countQuery(query)) as Array<{ total: unknown }>
    return { rows: ordered ? rows : byId(rows), total: Number(count?.total) }
  }
  return [await side(guarded), await side(unguarded)]
}

/**
 * The guard property: for random valid requests, the result (rows, eager-loaded relations and count) with
 * the tenant guard on the two-tenant tables equals the result without any guard on tables that hold only
 * the rows tenant 1 may see, with the same ids. Runs `settings.numRuns` cases from `settings.seed`; returns
 * how many ran and how many of them returned rows (so a property that only compares empty results shows).
 */
export async function checkGuardEquivalence(
  db: TestDatabase,
  settings: FuzzSettings,
): Promise<{ cases: number; withRows: number }> {
  await tenantTables(db)
  let cases = 0
  let withRows = 0
  await fc.assert(
    fc.asyncProperty(
      tenantRequest(guardedMaps.plain, BOTH),
      fc.constantFrom<'plain' | 'or'>('plain', 'or'),
      async (request, style) => {
        cases++
        const [guarded, unguarded] = await bothSides(db, request, style)
        expect(guarded, JSON.stringify(request)).to.deep.equal(unguarded)
        if (guarded.rows.length > 0) withRows++
      },
    ),
    { seed: settings.seed, numRuns: settings.numRuns },
  )
  return { cases, withRows }
}
