// Type tests, compiled by `npm run typecheck` and never run: a map whose guards read a context makes the
// options and their `context` required, for applyQueryParams and loadRelations; an unguarded map does not.
import type express from 'express'
import knex from 'knex'
import {
  applyQueryParams,
  defineRelationMap,
  loadRelations,
  parseQueryParams,
  type ContextOf,
  type GuardInfo,
  type NeedsContext,
  type QueryParams,
  type RelationMap,
} from '../../lib/index.ts'
import { queryParams } from '../../lib/integrations/express.ts'
import type { Expect, Equal } from './expect-type.ts'

interface Tenant {
  tenantId: number
}

const db = knex({ client: 'better-sqlite3', connection: { filename: ':memory:' }, useNullAsDefault: true })
const params = parseQueryParams('limit=10')

const tenantMap: RelationMap<Tenant> = {
  products: {
    columns: { id: 'integer', name: 'string' },
    guard: (query, { table, context }) => {
      query.where(`${table}.tenant_id`, context.tenantId)
    },
  },
}
const plainMap: RelationMap = { products: { columns: { id: 'integer', name: 'string' } } }
const optionalMap: RelationMap<Tenant | undefined> = {
  products: {
    columns: { id: 'integer' },
    guard: (query, { table, context }) => {
      if (context !== undefined) query.where(`${table}.tenant_id`, context.tenantId)
    },
  },
}
const literalMap = defineRelationMap({
  products: {
    columns: { id: 'integer', name: 'string' },
    relations: { reviews: { type: 'hasMany', table: 'reviews', foreignKey: 'product_id' } },
    guard: (query, { table, context }: GuardInfo<Tenant>) => {
      query.where(`${table}.tenant_id`, context.tenantId)
    },
  },
  reviews: { columns: { id: 'integer', product_id: 'integer' } },
})
const untypedLiteralMap = defineRelationMap({
  products: {
    columns: { id: 'integer' },
    guard: (query, { table }) => {
      query.whereNull(`${table}.deleted_at`)
    },
  },
})

type _contextOf = Expect<Equal<ContextOf<typeof tenantMap>, Tenant>>
type _contextOfLiteral = Expect<Equal<ContextOf<typeof literalMap>, Tenant>>
type _contextOfPlain = Expect<Equal<ContextOf<typeof plainMap>, unknown>>
type _contextOfUntypedLiteral = Expect<Equal<ContextOf<typeof untypedLiteralMap>, unknown>>
type _needs = Expect<
  Equal<[NeedsContext<Tenant>, NeedsContext<unknown>, NeedsContext<Tenant | undefined>], [true, false, false]>
>

export function applyQueryParamsTypes(): void {
  applyQueryParams(db('products'), params, tenantMap, { context: { tenantId: 1 } })
  applyQueryParams(db('products'), params, tenantMap, { context: { tenantId: 1 }, maxLimit: 100 })
  applyQueryParams(db('products'), params, literalMap, { context: { tenantId: 1 } })
  // @ts-expect-error the guards read context.tenantId: forgetting the options does not compile
  applyQueryParams(db('products'), params, tenantMap)
  // @ts-expect-error nor do options without the context
  applyQueryParams(db('products'), params, tenantMap, { maxLimit: 100 })
  // @ts-expect-error nor a context of another shape
  applyQueryParams(db('products'), params, tenantMap, { context: { tenant: 1 } })
  // @ts-expect-error a defineRelationMap literal whose guard declares its context needs it too
  applyQueryParams(db('products'), params, literalMap)

  applyQueryParams(db('products'), params, plainMap)
  applyQueryParams(db('products'), params, plainMap, { maxLimit: 100 })
  applyQueryParams(db('products'), params, untypedLiteralMap)
  applyQueryParams(db('products'), params, optionalMap)
  applyQueryParams(db('products'), params, optionalMap, { context: { tenantId: 2 } })
}

export async function loadRelationsTypes(): Promise<void> {
  const rows = [{ id: 1 }]
  await loadRelations(db, 'products', rows, ['reviews'], literalMap, { context: { tenantId: 1 } })
  await loadRelations(db, 'products', rows, ['reviews'], tenantMap, { context: { tenantId: 1 }, maxWith: 2 })
  // @ts-expect-error the guards read a context: loadRelations needs it
  await loadRelations(db, 'products', rows, ['reviews'], literalMap)
  // @ts-expect-error options without the context
  await loadRelations(db, 'products', rows, ['reviews'], tenantMap, { maxWith: 2 })
  await loadRelations(db, 'products', rows, [], plainMap)
  await loadRelations(db, 'products', rows, [], untypedLiteralMap)
}

export function expressTypes(app: express.Express): void {
  // After the queryParams() middleware, req.queryParams is there: no `?? {}`.
  app.get('/products', queryParams(), (req, res) => {
    const read: QueryParams = req.queryParams
    res.json(read)
  })
}
