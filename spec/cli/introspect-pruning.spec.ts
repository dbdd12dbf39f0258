import { expect } from 'chai'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import knex from 'knex'
import { applyQueryParams, parseQueryParams } from '../../lib/index.ts'
import { cliArguments } from '../../lib/cli/cli-arguments.ts'
import { runCli } from '../../lib/cli/run-cli.ts'
import { defineRelationMap } from '../../lib/map/define-relation-map.ts'
import type { GuardInfo, RelationMap } from '../../lib/relation-map.ts'
import { compileErrors, importGeneratedMap } from './support/generated-module.ts'

/** The newcomer's shop: a tenant column and soft deletes everywhere, a Stripe id, a category tree. */
async function createShop(file: string): Promise<void> {
  const db = knex({ client: 'better-sqlite3', connection: { filename: file }, useNullAsDefault: true })
  try {
    await db.schema.createTable('tenants', (t) => {
      t.increments('id')
      t.string('name').notNullable()
    })
    await db.schema.createTable('categories', (t) => {
      t.increments('id')
      t.integer('tenant_id').notNullable().references('id').inTable('tenants')
      t.integer('parent_id').references('id').inTable('categories')
      t.string('name').notNullable()
      t.datetime('deleted_at')
    })
    await db.schema.createTable('customers', (t) => {
      t.increments('id')
      t.integer('tenant_id').notNullable().references('id').inTable('tenants')
      t.string('email').notNullable()
      t.string('password_hash')
      t.string('stripe_customer_id')
      t.datetime('created_at').notNullable()
      t.datetime('deleted_at')
    })
    await db('tenants').insert([
      { id: 1, name: 'Acme' },
      { id: 2, name: 'Globex' },
    ])
    await db('categories').insert([
      { id: 1, tenant_id: 1, parent_id: null, name: 'Tools' },
      { id: 2, tenant_id: 1, parent_id: 1, name: 'Hammers' },
      { id: 3, tenant_id: 1, parent_id: 1, name: 'Old saws', deleted_at: '2024-01-01 00:00:00' },
      { id: 4, tenant_id: 2, parent_id: 1, name: 'Intruder' },
    ])
    await db('customers').insert([
      { id: 1, tenant_id: 1, email: 'a@acme.test', created_at: '2024-01-02 00:00:00' },
      { id: 2, tenant_id: 1, email: 'b@acme.test', created_at: '2024-01-03 00:00:00' },
      { id: 3, tenant_id: 2, email: 'c@globex.test', created_at: '2024-01-04 00:00:00' },
    ])
  } finally {
    await db.destroy()
  }
}

/** What docs/generating-the-map.md "Keeping hand edits across regenerations" shows: the generated module stays untouched, edits live beside it. */
const HAND_EDITS = `import { defineRelationMap, type GuardInfo } from 'knex-query-params'
import { relationMap as generated } from './relation-map.generated.ts'

const tenant = (query: import('knex').Knex.QueryBuilder, { table, context }: GuardInfo<{ tenantId: number }>): void => {
  query.where(\`\${table}.tenant_id\`, context.tenantId).whereNull(\`\${table}.deleted_at\`)
}

export const relationMap = defineRelationMap({
  ...generated,
  categories: { ...generated.categories, guard: tenant },
  customers: { ...generated.customers, guard: tenant },
})
`

describe('knex-query-params introspect: pruning a generated map (SQLite)', function () {
  this.timeout(120_000)
  let dir: string

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kqp-introspect-pruning-'))
    await createShop(join(dir, 'shop.sqlite'))
  })
  after(() => rmSync(dir, { recursive: true, force: true }))

  it('reads --exclude-columns and --no-inverse as lists', () => {
    expect(
      cliArguments([
        'introspect',
        '--connection',
        'a.db',
        '--exclude-columns',
        'deleted_at, *_secret,',
        '--no-inverse',
        'tenants',
      ]),
    ).to.deep.equal({
      command: 'introspect',
      source: { connection: 'a.db' },
      naming: 'as-is',
      exposePivots: false,
      excludeColumns: ['deleted_at', '*_secret'],
      noInverse: ['tenants'],
    })
  })

  it('writes a map without the excluded columns, without inverses onto tenants, with parent/children; hand edits beside it survive a regeneration', async () => {
    const out: string[] = []
    const err: string[] = []
    const argv = [
      'introspect',
      '--connection',
      join(dir, 'shop.sqlite'),
      '--naming',
      'camel',
      '--exclude-columns',
      'deleted_at,stripe_*,tenant_id',
      '--no-inverse',
      'tenants',
      '--out',
      'relation-map.generated.ts',
    ]
    const code = await runCli(argv, { out: (text) => out.push(text), err: (text) => err.push(text) }, dir)
    expect([code, err]).to.deep.equal([0, []])
    const text = readFileSync(join(dir, 'relation-map.generated.ts'), 'utf8')
    expect(text).to.contain('(naming: camel; exclude columns: deleted_at, stripe_*, tenant_id; no inverse: tenants)')
    expect(text).to.contain(" * - customers.stripe_customer_id: left out, excluded by 'stripe_*'\n")
    expect(text).to.contain(
      ' * - tenants: no inverse relations (hasMany/hasOne) from categories.tenant_id, customers.tenant_id, as noInverse asks\n',
    )

    const generated = await importGeneratedMap(join(dir, 'relation-map.generated.ts'))
    expect(generated).to.deep.equal({
      tenants: { columns: { id: 'integer', name: { type: 'string', nullable: false } } },
      categories: {
        columns: {
          id: 'integer',
          parentId: { type: 'integer', column: 'parent_id' },
          name: { type: 'string', nullable: false },
        },
        relations: {
          parent: { type: 'belongsTo', table: 'categories', foreignKey: 'parent_id' },
          tenant: { type: 'belongsTo', table: 'tenants', foreignKey: 'tenant_id', required: true },
          children: { type: 'hasMany', table: 'categories', foreignKey: 'parent_id' },
        },
      },
      customers: {
        columns: {
          id: 'integer',
          email: { type: 'string', nullable: false },
          createdAt: { type: 'datetime', column: 'created_at', nullable: false },
        },
        relations: { tenant: { type: 'belongsTo', table: 'tenants', foreignKey: 'tenant_id', required: true } },
      },
    })

    // The hand edits live in their own module, which type-checks against the generated one...
    writeFileSync(join(dir, 'relation-map.ts'), HAND_EDITS)
    expect(compileErrors([join(dir, 'relation-map.generated.ts'), join(dir, 'relation-map.ts')])).to.deep.equal([])
    // ...and a regeneration rewrites only the generated module, byte for byte the same for the same schema.
    expect(await runCli(argv, { out: () => undefined, err: (text) => err.push(text) }, dir)).to.equal(0)
    expect(readFileSync(join(dir, 'relation-map.generated.ts'), 'utf8')).to.equal(text)
    expect(readFileSync(join(dir, 'relation-map.ts'), 'utf8')).to.equal(HAND_EDITS)

    // The edited map at work: tenant 1's live categories, their children guarded too, the client's created_at spelling.
    const tenant = (
      query: import('knex').Knex.QueryBuilder,
      { table, context }: GuardInfo<{ tenantId: number }>,
    ): void => {
      query.where(`${table}.tenant_id`, context.tenantId).whereNull(`${table}.deleted_at`)
    }
    const edited: RelationMap<{ tenantId: number }> = defineRelationMap({
      ...generated,
      categories: { ...generated['categories'], columns: generated['categories']?.columns ?? {}, guard: tenant },
      customers: { ...generated['customers'], columns: generated['customers']?.columns ?? {}, guard: tenant },
    })
    const db = knex({
      client: 'better-sqlite3',
      connection: { filename: join(dir, 'shop.sqlite'), options: { readonly: true } },
      useNullAsDefault: true,
    })
    try {
      const context = { tenantId: 1 }
      const categories = await applyQueryParams(
        db('categories'),
        parseQueryParams('with[0]=children&wheres[0][column]=parentId&wheres[0][value]'),
        edited,
        { context },
      )
      expect(categories).to.deep.equal([
        { id: 1, parentId: null, name: 'Tools', children: [{ id: 2, parentId: 1, name: 'Hammers' }] },
      ])
      const customers = await applyQueryParams(
        db('customers'),
        parseQueryParams('orders[0][column]=created_at&orders[0][direction]=desc&columns[0]=email'),
        edited,
        { context },
      )
      expect(customers).to.deep.equal([{ email: 'b@acme.test' }, { email: 'a@acme.test' }])
    } finally {
      await db.destroy()
    }
  })
})
