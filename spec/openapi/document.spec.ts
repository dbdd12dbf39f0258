import { Validator } from '@seriousme/openapi-schema-validator'
import { expect } from 'chai'
import knex from 'knex'
import { demoOpenApiDocument } from '../../demo/openapi.ts'
import {
  QueryParamsError,
  QueryTimeoutError,
  applyQueryParams,
  defineRelationMap,
  parseQueryParams,
} from '../../lib/index.ts'
import { errorResponse, serverProblemResponse, tooLargeResponse } from '../../lib/http.ts'
import { componentValidators } from './support/document-validator.ts'
import {
  openApiDocument,
  QUERY_PARAMS_ERROR_CODES,
  type JsonSchema,
  type OpenApiDocument,
  type OpenApiRouteOptions,
} from '../../lib/openapi.ts'
import type { RelationMap } from '../../lib/relation-map.ts'
import { queryProperties } from '../../lib/openapi/query-schema.ts'
import { routeSettings } from '../../lib/openapi/route-settings.ts'
import { rowSchema } from '../../lib/openapi/row-schema.ts'

const shopMap = defineRelationMap({
  products: {
    columns: {
      id: 'integer',
      sku: { type: 'string', nullable: false, unique: true, operators: ['=', 'in'] },
      body: { type: 'string', sortable: false, filterable: false },
      price: 'decimal',
      stock: { type: 'bigint', nullable: false },
      launchedOn: { type: 'date', column: 'launched_on' },
      updated_at: 'datetime',
      vendor_id: 'integer',
    },
    relations: {
      vendor: { type: 'belongsTo', table: 'vendors', foreignKey: 'vendor_id' },
      reviews: { type: 'hasMany', table: 'reviews', foreignKey: 'product_id' },
    },
    scopes: { inStock: (query) => void query.where('stock', '>', 0) },
  },
  vendors: {
    columns: { id: 'integer', name: 'string' },
    relations: { products: { type: 'hasMany', table: 'products', foreignKey: 'vendor_id' } },
  },
  reviews: {
    columns: { id: 'integer', product_id: 'integer', stars: { type: 'integer', nullable: false }, author: 'string' },
    relations: { product: { type: 'belongsTo', table: 'products', foreignKey: 'product_id' } },
  },
})

const schemaOf = (document: OpenApiDocument, name: string): JsonSchema => {
  const schema = document.components.schemas[name]
  if (schema === undefined) throw new Error(`no schema ${name}`)
  return schema
}

/** The where branches of a list operation: column names, operators and value schema. */
function whereBranches(
  document: OpenApiDocument,
  name: string,
): Array<{ columns: string[]; operators: string[]; value: JsonSchema }> {
  const items = schemaOf(document, `${name}.query.wheres`)['items'] as {
    anyOf: Array<{ properties: Record<string, JsonSchema> }>
  }
  return items.anyOf.map(({ properties }) => ({
    columns: properties['column']?.['enum'] as string[],
    operators: properties['operator']?.['enum'] as string[],
    value: properties['value'] as JsonSchema,
  }))
}

function operatorsOf(document: OpenApiDocument, name: string, column: string): string[] {
  return whereBranches(document, name)
    .filter((branch) => branch.columns.includes(column))
    .flatMap((branch) => branch.operators)
    .sort()
}

const enumOf = (document: OpenApiDocument, name: string): string[] =>
  (schemaOf(document, name)['items'] as { enum: string[] }).enum

async function expectValid(document: OpenApiDocument): Promise<void> {
  const validator = new Validator()
  const result = await validator.validate(structuredClone(document) as Record<string, unknown>)
  expect(result.errors, JSON.stringify(result.errors)?.slice(0, 2000)).to.equal(undefined)
  expect(result.valid).to.equal(true)
  expect(validator.version).to.equal('3.1')
}

describe('openApiDocument', () => {
  const shop = openApiDocument(shopMap, {
    title: 'Shop',
    resources: [
      {
        path: '/products',
        table: 'products',
        options: { maxLimit: 100, maxWheres: 7 },
        item: true,
        formPath: '/products/search',
      },
      { path: '/vendors', table: 'vendors', pagination: 'cursor' },
      { path: '/reviews', table: 'reviews', pagination: 'none', options: { count: false } },
      { path: '/catalog', table: 'products', name: 'catalog', pagination: 'page-or-cursor' },
    ],
  })

  it('is a valid OpenAPI 3.1 document (@seriousme/openapi-schema-validator), for the demo map and a map with every capability', async () => {
    await expectValid(shop)
    await expectValid(demoOpenApiDocument())
    const broken = structuredClone(shop) as unknown as {
      paths: Record<string, { get: { parameters: Array<Record<string, unknown>> } }>
    }
    delete broken.paths['/products']?.get.parameters[0]?.['in']
    expect((await new Validator().validate(broken)).valid, 'a parameter without in').to.equal(false)
  })

  it('has one list operation per resource named, and the item route and the form POST when asked for', () => {
    expect(Object.keys(shop.paths).sort()).to.deep.equal([
      '/catalog',
      '/products',
      '/products/search',
      '/products/{id}',
      '/reviews',
      '/vendors',
    ])
    expect(shop.paths['/products']?.['get']?.['operationId']).to.equal('listProducts')
    expect(shop.paths['/catalog']?.['get']?.['operationId']).to.equal('listCatalog')
    expect(shop.paths['/products/{id}']?.['get']?.['operationId']).to.equal('getProducts')
    const form = shop.paths['/products/search']?.['post'] as {
      requestBody: { content: Record<string, { schema: JsonSchema }> }
    }
    expect(form.requestBody.content['application/x-www-form-urlencoded']?.schema).to.deep.equal({
      $ref: '#/components/schemas/products.query',
    })
    const demo = demoOpenApiDocument()
    expect(Object.keys(demo.paths).sort()).to.deep.equal(
      ['users', 'teams', 'posts', 'comments', 'tags', 'images'].flatMap((name) => [`/${name}`, `/${name}/{id}`]).sort(),
    )
  })

  it("each column's operators from its capabilities and type: declared operators, not_filterable left out, like only for text", () => {
    expect(operatorsOf(shop, 'products', 'sku')).to.deep.equal(['=', 'in'])
    expect(operatorsOf(shop, 'products', 'body')).to.deep.equal([])
    expect(operatorsOf(shop, 'products', 'price')).to.deep.equal([
      '!=',
      '<',
      '<=',
      '=',
      '>',
      '>=',
      'between',
      'in',
      'notBetween',
      'notIn',
    ])
    expect(operatorsOf(shop, 'products', 'vendor.name')).to.include('like')
    expect(operatorsOf(shop, 'products', 'reviews.stars')).to.not.include('like')
  })

  it('columns in both spellings, as table.column, through relations, and aggregates', () => {
    const columns = whereBranches(shop, 'products').flatMap((branch) => branch.columns)
    expect(columns).to.include.members([
      'launchedOn',
      'launched_on',
      'products.launchedOn',
      'updated_at',
      'updatedAt',
      'vendor.name',
      'reviews.product.sku',
      'reviewsCount',
      'reviews_count',
      'vendorExists',
    ])
    expect(columns).to.not.include('launched_on_x')
    expect(
      columns.filter((name) => name.split('.').length > 3),
      'relation paths up to the listed depth, 2',
    ).to.deep.equal([])
  })

  it("relation paths: listed up to relationPathDepth, never past the route's maxRelationDepth (wheres, relations_exists, orders) or maxWithDepth (with)", () => {
    const document = openApiDocument(shopMap, {
      relationPathDepth: 3,
      resources: [
        { path: '/a', table: 'products', name: 'deep' },
        { path: '/b', table: 'products', name: 'capped', options: { maxRelationDepth: 1, maxWithDepth: 2 } },
      ],
    })
    const depth = (names: string[]): number => Math.max(...names.map((name) => name.split('.').length))
    expect(depth(enumOf(document, 'deep.query.relations_exists'))).to.equal(3)
    expect(depth(enumOf(document, 'deep.query.with'))).to.equal(3)
    expect(depth(enumOf(document, 'capped.query.relations_exists'))).to.equal(1)
    expect(depth(whereBranches(document, 'capped').flatMap((branch) => branch.columns))).to.equal(2)
    expect(depth(enumOf(document, 'capped.query.with'))).to.equal(2)
    const caps = document.paths['/b']?.['get']?.['x-kqp-caps']
    expect(caps).to.deep.include({ maxRelationDepth: 1, maxWithDepth: 2, listedRelationDepth: 1, listedWithDepth: 2 })
  })

  it('values by declared type: date and date-time formats, exact strings for bigint and decimal, null only with = and !=', () => {
    const valueSchemaOf = (column: string, operator: string): JsonSchema | undefined =>
      whereBranches(shop, 'products').find(
        (branch) => branch.columns.includes(column) && branch.operators.includes(operator),
      )?.value
    expect(valueSchemaOf('launchedOn', '<')).to.deep.equal({ type: 'string', format: 'date', not: { const: 'null' } })
    expect(valueSchemaOf('updated_at', '=')).to.deep.equal({
      anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }],
    })
    expect(valueSchemaOf('price', '>')).to.deep.include({
      type: 'string',
      pattern: '^-?(0|[1-9][0-9]{0,64})(\\.[0-9]{1,30})?$',
    })
    expect(valueSchemaOf('stock', '>')).to.deep.include({ type: 'string', pattern: '^-?(0|[1-9][0-9]{0,17})$' })
    expect(valueSchemaOf('stock', 'between')).to.deep.include({ type: 'array', minItems: 2, maxItems: 2 })
    expect(valueSchemaOf('sku', 'in')).to.deep.include({ type: 'array', maxItems: 1000 })
  })

  it('an enum for a column that declares its values', () => {
    // The map check of this version refuses `values`: the generator's part is read on the unchecked map.
    const map = {
      things: { columns: { id: 'integer', state: { type: 'string', values: ['open', 'closed'] } } },
    } as unknown as RelationMap
    const wheres = queryProperties(
      map,
      'things',
      routeSettings({ path: '/things', table: 'things' }, { resources: [] }),
    )['wheres']
    const branches =
      (wheres?.['items'] as { anyOf: Array<{ properties: Record<string, JsonSchema> }> } | undefined)?.anyOf ?? []
    const state = branches.find(
      (branch) =>
        ((branch.properties['column']?.['enum'] as string[] | undefined) ?? []).includes('state') &&
        ((branch.properties['operator']?.['enum'] as string[] | undefined) ?? []).includes('<'),
    )
    expect(state?.properties['value']).to.deep.include({ type: 'string', enum: ['open', 'closed'] })
    expect((rowSchema(map, 'things')['properties'] as Record<string, JsonSchema>)['state']).to.deep.equal({
      type: ['string', 'null'],
      enum: ['open', 'closed', null],
    })
  })

  it('orders and distinct only by sortable columns, orders through to-one relations only; scopes; limit maximum = maxLimit; wheres maxItems = maxWheres', () => {
    const orders = (schemaOf(shop, 'products.query.orders')['items'] as { properties: { column: { enum: string[] } } })
      .properties.column.enum
    expect(orders).to.include.members(['sku', 'vendor.name', 'reviewsCount'])
    expect(orders).to.not.include.members(['body', 'reviews.stars'])
    expect(enumOf(shop, 'products.query.distinct')).to.not.include('body')
    expect(enumOf(shop, 'products.query.columns')).to.include('body')
    expect(enumOf(shop, 'products.query.scopes')).to.deep.equal(['inStock'])
    expect(enumOf(shop, 'products.query.relations_exists')).to.deep.equal([
      'vendor',
      'reviews',
      'vendor.products',
      'reviews.product',
    ])
    expect(enumOf(shop, 'products.query.with')).to.include.members([
      '*',
      'vendor',
      'reviews.product',
      'reviews.*',
      'reviewsCount',
      'vendor.productsCount',
    ])
    expect(schemaOf(shop, 'products.query.limit')).to.deep.equal({ type: 'integer', minimum: 1, maximum: 100 })
    expect(schemaOf(shop, 'vendors.query.limit')).to.deep.equal({ type: 'integer', minimum: 1, maximum: 1000 })
    expect(schemaOf(shop, 'products.query.wheres')['maxItems']).to.equal(7)
  })

  it('pagination: page and offset with { data, meta }; cursor with its meta; none with limit and offset only', () => {
    const keys = (name: string): string[] => Object.keys(schemaOf(shop, `${name}.query`)['properties'] as object)
    expect(keys('products')).to.include.members(['page', 'offset']).and.not.include('cursor')
    expect(keys('vendors')).to.include('cursor').and.not.include.members(['page', 'offset'])
    expect(keys('reviews')).to.include('offset').and.not.include.members(['page', 'cursor'])
    expect(keys('catalog')).to.include.members(['page', 'offset', 'cursor'])
    const list = (name: string): Record<string, JsonSchema> =>
      schemaOf(shop, `${name}.list`)['properties'] as Record<string, JsonSchema>
    expect(list('vendors')['meta']).to.deep.equal({ $ref: '#/components/schemas/CursorMeta' })
    expect(list('vendors')['links']).to.deep.equal({ $ref: '#/components/schemas/CursorLinks' })
    expect(schemaOf(shop, 'vendors.list')['required']).to.deep.equal(['data', 'meta'])
    expect(list('products')).to.have.keys('data', 'meta')
    expect(list('catalog')['meta']).to.deep.equal({
      anyOf: [{ $ref: '#/components/schemas/PageMeta' }, { $ref: '#/components/schemas/CursorMeta' }],
    })
    expect(schemaOf(shop, 'catalog.list')['required']).to.deep.equal(['data'])
    expect(schemaOf(shop, 'CursorLinks')['required']).to.deep.equal(['next', 'prev'])
    const constraints = (path: string): string[] =>
      (shop.paths[path]?.['get']?.['x-kqp-constraints'] as string[] | undefined) ?? []
    const cursorRule = constraints('/catalog').find((rule) => rule.includes('cursor'))
    expect(cursorRule).to.equal(
      'A cursor comes from the page before, for the same query; not with page or offset (invalid_cursor).',
    )
    expect(constraints('/vendors')).to.include(cursorRule)
    expect(constraints('/products')).not.to.include(cursorRule)
    expect(schemaOf(shop, 'catalog.query')['allOf']).to.deep.equal([
      { not: { required: ['relations_exists', 'relationsExists'] } },
      { not: { required: ['cursor', 'page'] } },
      { not: { required: ['cursor', 'offset'] } },
    ])
    expect(schemaOf(shop, 'PageMeta')['required']).to.deep.equal([
      'current_page',
      'per_page',
      'from',
      'to',
      'total',
      'last_page',
    ])
  })

  it("a table's search declaration gives the search parameter", () => {
    // As for enums: the map check of this version refuses `search`, so the query schema is read on the unchecked map.
    const map = {
      notes: { columns: { id: 'integer', text: 'string' }, search: { columns: ['text'], mode: 'fulltext' } },
    } as RelationMap
    const options = { maxSearchLength: 150 } as OpenApiRouteOptions
    const properties = queryProperties(
      map,
      'notes',
      routeSettings({ path: '/notes', table: 'notes', options }, { resources: [] }),
    )
    expect(properties['search']).to.deep.include({
      type: 'string',
      maxLength: 150,
      description: 'Search text, looked for in text (fulltext).',
    })
    const words = new RegExp(String(properties['search']?.['pattern']), 'u')
    expect(['', 'one', ' ten words a b c d e f g h ', 'x'.repeat(50)].map((text) => words.test(text))).to.deep.equal([
      true,
      true,
      true,
      true,
    ])
    expect(['eleven words a b c d e f g h i', 'nul\u0000', 'a "b c"'].map((text) => words.test(text))).to.deep.equal([
      false,
      false,
      false,
    ])
    const orders = (properties['orders']?.['items'] as { properties: { column: { enum: string[] } } } | undefined)
      ?.properties.column.enum
    expect(orders).to.include('relevance')
    expect(
      queryProperties(shopMap, 'vendors', routeSettings({ path: '/v', table: 'vendors' }, { resources: [] })),
    ).to.not.have.property('search')
  })

  it('rows: types, nullability, nested relations (to-one nullable, to-many arrays), aggregates; nothing else', () => {
    const product = schemaOf(shop, 'products')
    const properties = product['properties'] as Record<string, JsonSchema>
    expect(properties['id']).to.deep.equal({ type: 'integer' })
    expect(properties['stock']).to.deep.include({ type: 'string' })
    expect(properties['price']).to.deep.include({ type: ['string', 'null'] })
    expect(properties['launchedOn']).to.deep.equal({ type: ['string', 'null'], format: 'date' })
    expect(properties['vendor']).to.deep.equal({ anyOf: [{ $ref: '#/components/schemas/vendors' }, { type: 'null' }] })
    expect(properties['reviews']).to.deep.equal({ type: 'array', items: { $ref: '#/components/schemas/reviews' } })
    expect(properties['reviews_count']).to.deep.include({ type: 'integer' })
    expect(product['additionalProperties']).to.equal(false)
  })

  it('the 400 answer is problem+json with the code enum of QueryParamsError; 413, 431 and 503 are described', () => {
    const responses = shop.paths['/products']?.['get']?.['responses'] as Record<
      string,
      { content: Record<string, unknown> }
    >
    expect(Object.keys(responses).sort()).to.deep.equal(['200', '400', '413', '431', '503'])
    expect(Object.keys(responses['400']?.content ?? {})).to.deep.equal(['application/problem+json'])
    const code = (schemaOf(shop, 'QueryProblem')['properties'] as Record<string, JsonSchema>)['code']
    expect(code?.['enum']).to.deep.equal([...QUERY_PARAMS_ERROR_CODES])
  })

  it("the library's own problem bodies validate against the document's: errorResponse (400), tooLargeResponse (413, 431), serverProblemResponse (503)", () => {
    const validator = componentValidators(shop)
    const rejected = errorResponse(
      new QueryParamsError("Parameter 'limit' must be at most 100.", { code: 'limit_exceeded', param: 'limit' }),
    )
    expect(validator('QueryProblem')(rejected?.body)).to.equal(true)
    expect(validator('QueryProblem')({ ...rejected?.body, code: 'made_up' })).to.equal(false)
    for (const status of [413, 431] as const)
      expect(validator('TooLargeProblem')(tooLargeResponse(status).body), String(status)).to.equal(true)
    expect(validator('UnavailableProblem')(serverProblemResponse(new QueryTimeoutError(5000)).body)).to.equal(true)
    expect(
      validator('UnavailableProblem')({
        message: 'The database is unavailable; try again shortly.',
        code: 'database_unavailable',
      }),
      "the demo's 503",
    ).to.equal(true)
  })

  it('every where column and operator the document lists is accepted by applyQueryParams, and every other column it names is refused', () => {
    const db = knex({ client: 'pg' })
    let accepted = 0
    for (const branch of whereBranches(shop, 'products')) {
      for (const column of branch.columns) {
        for (const operator of branch.operators) {
          const text = JSON.stringify(branch.value)
          const one = text.includes('"date-time"')
            ? '2024-01-02T03:04:05Z'
            : text.includes('"date"')
              ? '2024-01-02'
              : '1'
          const value =
            operator === 'in' || operator === 'notIn'
              ? ''
              : operator === 'between' || operator === 'notBetween'
                ? `&wheres[0][value][0]=${one}&wheres[0][value][1]=${one}`
                : `&wheres[0][value]=${one}`
          const sample = operator === 'like' ? '&wheres[0][value]=a%25' : value
          const params = parseQueryParams(
            `wheres[0][column]=${column}&wheres[0][operator]=${encodeURIComponent(operator)}${sample}`,
          )
          expect(
            () => applyQueryParams(db('products'), params, shopMap).toSQL(),
            `${column} ${operator}`,
          ).to.not.throw()
          accepted++
        }
      }
    }
    expect(accepted).to.be.greaterThan(200)
    for (const [column, operator] of [
      ['body', '='],
      ['sku', '<'],
      ['password', '='],
      ['reviews.stars', 'like'],
    ] as const) {
      const params = parseQueryParams(
        `wheres[0][column]=${column}&wheres[0][operator]=${encodeURIComponent(operator)}&wheres[0][value]=1`,
      )
      expect(() => applyQueryParams(db('products'), params, shopMap), `${column} ${operator}`).to.throw(
        QueryParamsError,
      )
    }
  })

  it('every with, relations_exists, orders, columns, distinct and scopes value the document lists (to depth 3) is accepted by applyQueryParams', () => {
    const db = knex({ client: 'pg' })
    const document = openApiDocument(shopMap, { relationPathDepth: 3, resources: [{ path: '/p', table: 'products' }] })
    const orders = (
      schemaOf(document, 'products.query.orders')['items'] as { properties: { column: { enum: string[] } } }
    ).properties.column.enum
    const lists: Array<[string, string[]]> = [
      ...(['with', 'relations_exists', 'columns', 'distinct', 'scopes'] as const).map((key): [string, string[]] => [
        key,
        enumOf(document, `products.query.${key}`),
      ]),
      ['orders', orders],
    ]
    let accepted = 0
    for (const [key, values] of lists) {
      for (const value of values) {
        const query = key === 'orders' ? `orders[0][column]=${value}&orders[0][direction]=desc` : `${key}[0]=${value}`
        expect(() => applyQueryParams(db('products'), parseQueryParams(query), shopMap).toSQL(), query).to.not.throw()
        accepted++
      }
    }
    expect(accepted).to.be.greaterThan(100)
  })

  it('refuses a table not in the map and two resources of one name, with a plain Error naming them', () => {
    expect(() => openApiDocument(shopMap, { resources: [{ path: '/x', table: 'nope' }] })).to.throw(
      Error,
      "table 'nope' is not in the relation map",
    )
    expect(() =>
      openApiDocument(shopMap, {
        resources: [
          { path: '/a', table: 'vendors' },
          { path: '/b', table: 'vendors' },
        ],
      }),
    ).to.throw(Error, "two resources are named 'vendors'")
  })
})
