import { expect } from 'chai'
import knex, { type Knex } from 'knex'
import { testDatabases } from '../support/databases.ts'
import { countQueries } from '../support/count-queries.ts'

/**
 * The knex behaviours the library relies on beyond knex's typed API (its builders' recorded statements, how
 * `clone()` copies them, and which methods the runner calls). The peer range is `knex ^3`; if a knex release
 * changes one of these, the test names the behaviour that changed.
 */

interface Statement {
  grouping: string
  type?: string
  bool?: string
  not?: boolean
  value?: unknown
}

interface Internals {
  _statements: Statement[]
  _single: Record<string, unknown>
  _method?: string
}

const internals = (builder: Knex.QueryBuilder): Internals => builder as unknown as Internals
const behaviour = (text: string): string => `knex behaviour relied on: ${text}`

describe('knex: the behaviours the library relies on', () => {
  const db = knex({ client: 'better-sqlite3', connection: { filename: ':memory:' }, useNullAsDefault: true })
  after(() => db.destroy())

  it('records each clause as a statement with a grouping (where, columns, order, join) and a bool (and, or)', () => {
    const query = db('posts').select('id').where('a', 1).orWhere('b', 2).join('users', 'users.id', 'posts.user_id').orderBy('id')
    const statements = internals(query)._statements
    expect(statements.map((statement) => statement.grouping), behaviour('_statements groupings')).to.deep.equal(['columns', 'where', 'where', 'join', 'order'])
    expect(statements.filter((statement) => statement.grouping === 'where').map((statement) => statement.bool), behaviour('where statements carry bool')).to.deep.equal(['and', 'or'])
    expect(internals(db('posts').count({ total: '*' }))._statements[0], behaviour('an aggregate is a columns statement of type aggregate')).to.include({ grouping: 'columns', type: 'aggregate' })
  })

  it('keeps the table, limit, offset and lock in _single, and the method in _method', () => {
    const query = db('posts').limit(20).offset(40).forUpdate()
    expect(internals(query)._single, behaviour('_single.table/limit/offset/lock')).to.include({ table: 'posts', limit: 20, offset: 40 })
    expect(internals(query)._single.lock, behaviour('_single.lock after forUpdate()')).not.to.equal(undefined)
    expect(internals(db('posts').select('id'))._method, behaviour("_method of a select is 'select'")).to.equal('select')
    expect(internals(db('posts').first('id'))._method, behaviour("_method of first() is 'first'")).to.equal('first')
  })

  it('clone() copies the statement list into a new array of the same statement objects (a shallow copy)', () => {
    const query = db('posts').where('a', 1).orderBy('id')
    const clone = query.clone()
    expect(internals(clone)._statements, behaviour('clone() gives a new _statements array')).not.to.equal(internals(query)._statements)
    internals(query)._statements.forEach((statement, index) =>
      expect(internals(clone)._statements[index], behaviour('clone() keeps the statement objects themselves')).to.equal(statement),
    )
    clone.where('b', 2)
    expect(internals(query)._statements, behaviour('a clone\'s new statements do not reach the original')).to.have.length(2)
  })

  it('clone() does not copy own properties: a replaced then or toSQL stays on the original', () => {
    const query = db('posts')
    Object.defineProperty(query, 'toSQL', { value: () => ({ sql: 'replaced', bindings: [] }), configurable: true, writable: true })
    expect(Object.prototype.hasOwnProperty.call(query.clone(), 'toSQL'), behaviour('clone() builds a fresh builder')).to.equal(false)
    expect(query.clone().toSQL().sql).to.match(/^select \* from/)
  })

  it('compiles statements pushed onto _statements (also inside a whereWrapped group) and a replaced statement list', () => {
    const source = db('posts').where('a', 1).orWhere('b', 2)
    const moved = internals(source)._statements
    const target = db('posts').where('tenant', 7)
    internals(target)._statements.push({
      grouping: 'where',
      type: 'whereWrapped',
      bool: 'and',
      not: false,
      value(this: Knex.QueryBuilder) {
        internals(this)._statements.push(...moved)
      },
    })
    expect(target.toSQL().sql, behaviour('whereWrapped statements run their value on a fresh builder and wrap its wheres')).to.equal(
      'select * from `posts` where `tenant` = ? and (`a` = ? or `b` = ?)',
    )
    const replaced = db('posts').where('a', 1).orderBy('id')
    internals(replaced)._statements = internals(replaced)._statements.filter((statement) => statement.grouping !== 'order')
    expect(replaced.toSQL().sql, behaviour('a replaced _statements array is what compiles')).to.equal('select * from `posts` where `a` = ?')
  })

  it('compiles a raw set as _single.limit as its SQL, with its bindings in place (the frequency guard\'s limit)', () => {
    const query = db('posts').select('id').where('a', 1).orderBy('id').offset(5)
    internals(query)._single.limit = db.raw('case when ? < 3 then ? else 0 end', [db.raw('(select count(*) from tags where name = ?)', ['x']), 20])
    const { sql, bindings } = query.toSQL()
    expect(sql, behaviour('a raw limit compiles inline')).to.equal('select `id` from `posts` where `a` = ? order by `id` asc limit case when (select count(*) from tags where name = ?) < 3 then ? else 0 end offset ?')
    expect(bindings, behaviour('a raw limit binds in place')).to.deep.equal([1, 'x', 20, 5])
  })

  it('compiles only the where clause through client.queryCompiler(builder).where(), with its bindings', () => {
    const query = db('posts').select('id').where('a', 1).orderBy('id')
    const compiler = (query.client as unknown as { queryCompiler(builder: Knex.QueryBuilder): { where(): string; bindings: unknown[] } }).queryCompiler(query)
    expect(compiler.where(), behaviour('queryCompiler().where()')).to.equal('where `a` = ?')
    expect(compiler.bindings, behaviour('queryCompiler().bindings after where()')).to.deep.equal([1])
  })

  it('quotes identifiers through client.wrapIdentifier and aliases through client.alias', () => {
    const client = db.client as unknown as { wrapIdentifier(value: string, context: unknown): string; alias(first: string, second: string): string }
    expect(client.wrapIdentifier('posts', undefined), behaviour('client.wrapIdentifier')).to.equal('`posts`')
    expect(client.alias('`a`', '`b`'), behaviour('client.alias')).to.equal('`a` as `b`')
  })

  for (const database of testDatabases()) {
    describe(`running a builder (${database.name})`, () => {
      it('await runs the SQL of the builder\'s own toSQL(), so a replaced toSQL is what the database receives', async () => {
        const query = database.knex('users').select('id').where('id', 1)
        const original = query.toSQL.bind(query)
        Object.defineProperty(query, 'toSQL', {
          value: (...args: unknown[]) => {
            const compiled = (original as (...rest: unknown[]) => Knex.Sql)(...args)
            return { ...compiled, sql: `${compiled.sql} and 1 = 0` }
          },
          configurable: true,
          writable: true,
        })
        const { result, queries } = await countQueries(database.knex, async () => (await query) as unknown[])
        expect(queries.map((event) => event.sql.includes('1 = 0')), behaviour('the runner compiles through the builder\'s toSQL()')).to.deep.equal([true])
        expect(result, behaviour('the runner compiles through the builder\'s toSQL()')).to.deep.equal([])
      })

      it('await calls the builder\'s own then, so a replaced then decides what awaiting resolves to', async () => {
        const query = database.knex('users').select('id').where('id', 1)
        const run = (Object.getPrototypeOf(query) as { then: (this: Knex.QueryBuilder) => Promise<unknown> }).then
        Object.defineProperty(query, 'then', {
          value(this: Knex.QueryBuilder, onFulfilled?: (value: unknown) => unknown, onRejected?: (reason: unknown) => unknown) {
            return run.call(this).then((rows) => ({ wrapped: rows })).then(onFulfilled, onRejected)
          },
          configurable: true,
          writable: true,
        })
        const awaited = (await query) as unknown as { wrapped: Array<{ id: unknown }> }
        expect(awaited, behaviour('await uses an own then')).to.have.property('wrapped')
        expect(awaited.wrapped.map((row) => Number(row.id))).to.deep.equal([1])
      })
    })
  }
})
