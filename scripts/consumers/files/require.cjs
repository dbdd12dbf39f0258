// A CommonJS consumer: `require('knex-query-params')` (require of ESM, Node >= 20.19) next to `require('knex')`.
'use strict'
const assert = require('node:assert/strict')
const knex = require('knex')
const { QueryParamsError, applyQueryParams, parseQueryParams } = require('knex-query-params')

async function main() {
  const db = knex({ client: 'better-sqlite3', connection: { filename: ':memory:' }, useNullAsDefault: true })
  try {
    await db.schema.createTable('users', (t) => { t.increments('id'); t.string('name'); t.string('password') })
    await db('users').insert([{ name: 'Ada', password: 'secret' }, { name: 'Linus', password: 'hunter2' }])
    const relationMap = { users: { columns: { id: 'integer', name: 'string' } } }

    const rows = await applyQueryParams(db('users'), parseQueryParams('wheres[0][column]=name&wheres[0][value]=Linus'), relationMap)
    assert.deepEqual(rows.map((row) => ({ ...row })), [{ id: 2, name: 'Linus' }])

    assert.throws(
      () => applyQueryParams(db('users'), parseQueryParams('wheres[0][column]=password&wheres[0][value]=x'), relationMap),
      (error) => error instanceof QueryParamsError && error.status === 400 && error.param === 'wheres[0][column]',
    )
    console.log(JSON.stringify(rows))
  } finally {
    await db.destroy()
  }
}

main().catch((error) => {
  console.error(error)
  process.exitCode = 1
})
