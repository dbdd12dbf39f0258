import { expect } from 'chai'
import knex, { type Knex } from 'knex'
import type { Readable } from 'node:stream'
import { compileAs, replaceRowReading, runAsKnex, statementCopy, streamAsKnex } from '../../lib/knex/builder-methods.ts'
import {
  baseTableOf,
  clauseOtherThanWhere,
  compileWhere,
  copyWheres,
  groupWheres,
  hasOrder,
  holdsWhereRaw,
  isPlainRowList,
  joinedTables,
  limitByRaw,
  limitOf,
  methodOf,
  offsetOf,
  putLastJoinFirst,
  replaceWhereRaw,
  selectedValues,
  selectsAggregate,
  shapesRows,
  statementCount,
  StatementMark,
  statementOptionsOf,
} from '../../lib/knex/builder-state.ts'
import {
  acquireConnection,
  acquireRawConnection,
  destroyRawConnection,
  driverOf,
  identifierQuotingOf,
  inTransaction,
  knexClientOf,
  knexConfigOf,
  releaseConnection,
  runInTransaction,
} from '../../lib/knex/client.ts'
import { countQueries } from '../support/count-queries.ts'
import { testDatabases } from '../support/databases.ts'

/**
 * The knex behaviours the knex boundary (`lib/knex/`) relies on beyond knex's documented API: what a builder
 * records and where, how `clone()` copies it, which methods the runner calls, what a client holds. Each test
 * exercises the boundary's function on real knex builders and clients; when a knex release changes one of
 * these, the failure names the behaviour. CI runs this on the oldest and the newest supported knex.
 */

const behaviour = (text: string): string => `knex behaviour relied on: ${text}`

const sqlOf = (builder: Knex.QueryBuilder): { sql: string; bindings: readonly unknown[] } => {
  const { sql, bindings } = builder.toSQL()
  return { sql, bindings }
}

const read = async (stream: Readable): Promise<unknown[]> => {
  const rows: unknown[] = []
  for await (const row of stream) rows.push(row)
  return rows
}

describe('knex: the behaviours the knex boundary relies on', () => {
  const db = knex({ client: 'better-sqlite3', connection: { filename: ':memory:' }, useNullAsDefault: true })
  const pg = knex({ client: 'pg' })
  after(() => Promise.all([db.destroy(), pg.destroy()]))

  describe('what a builder records (builder-state.ts)', () => {
    it('the table as written, limit and offset as numbers, in _single', () => {
      expect(baseTableOf(db('posts')), behaviour("_single.table holds db('posts')'s table")).to.equal('posts')
      expect(baseTableOf(db('posts as p')), behaviour("_single.table holds 'posts as p' as written")).to.equal(
        'posts as p',
      )
      expect(
        baseTableOf(db.from(db('posts').as('sub'))),
        behaviour('_single.table of a subquery is not a string'),
      ).to.equal(undefined)
      expect(baseTableOf(db.queryBuilder()), behaviour('_single.table of a builder without a table is unset')).to.equal(
        undefined,
      )
      const paged = db('posts').limit(20).offset(40)
      expect(
        [limitOf(paged), offsetOf(paged)],
        behaviour('_single.limit and _single.offset hold numbers'),
      ).to.deep.equal([20, 40])
      expect(
        limitOf(db('posts').limit('10' as unknown as number)),
        behaviour("limit('10') is recorded as the number 10"),
      ).to.equal(10)
      expect(
        [limitOf(db('posts')), offsetOf(db('posts'))],
        behaviour('no limit or offset recorded by default'),
      ).to.deep.equal([undefined, undefined])
    })

    it("the method in _method: 'select' by default and after select(), 'first' after first(), others by their name", () => {
      expect(methodOf(db('posts')), behaviour("_method of a new builder is 'select'")).to.equal('select')
      expect(methodOf(db('posts').select('id')), behaviour("_method after select() is 'select'")).to.equal('select')
      expect(methodOf(db('posts').first('id')), behaviour("_method after first() is 'first'")).to.equal('first')
      expect(methodOf(db('posts').pluck('id')), behaviour("_method after pluck() is 'pluck'")).to.equal('pluck')
      expect(methodOf(db('posts').where('id', 1).del()), behaviour("_method after del() is 'del'")).to.equal('del')
    })

    it('aggregates as columns statements of type aggregate or aggregateRaw', () => {
      expect(selectsAggregate(db('posts').count({ total: '*' })), behaviour('count() records an aggregate')).to.equal(
        true,
      )
      expect(selectsAggregate(db('posts').sum('views')), behaviour('sum() records an aggregate')).to.equal(true)
      expect(
        selectsAggregate(db('posts').countDistinct('author_id')),
        behaviour('countDistinct() records an aggregate'),
      ).to.equal(true)
      expect(
        selectsAggregate(db('posts').count(db.raw('distinct author_id'))),
        behaviour('count(raw) records an aggregateRaw'),
      ).to.equal(true)
      expect(
        selectsAggregate(db('posts').select('id').where('id', 1).orderBy('id')),
        behaviour('select, where and order are no aggregate'),
      ).to.equal(false)
    })

    it('select statements hold the names and raws given, in order; joins hold their table as written', () => {
      const raw = db.raw('"posts"."title"')
      expect(
        selectedValues(db('posts').select('id', 'posts.*').select(raw).first('body')),
        behaviour('columns statements hold what select()/first() were given'),
      ).to.deep.equal(['id', 'posts.*', raw, 'body'])
      expect(selectedValues(db('posts').where('id', 1)), behaviour('no columns statement without a select')).to.equal(
        undefined,
      )
      const joined = db('posts')
        .join('users as u', 'u.id', 'posts.author_id')
        .leftJoin('teams', 'teams.id', 'u.team_id')
        .joinRaw('join tags on 1 = 1')
      expect(
        joinedTables(joined),
        behaviour('join statements hold their table as written (a joinRaw has none)'),
      ).to.deep.equal(['users as u', 'teams'])
    })

    it('distinct, distinct on, group by, having and union shape the rows; where, order, join, limit do not', () => {
      const plain = db('posts')
        .select('id')
        .where('id', 1)
        .orWhere('id', 2)
        .join('users', 'users.id', 'posts.author_id')
        .orderBy('id')
        .limit(3)
      expect(
        shapesRows(plain),
        behaviour('where/order/join/limit statements are not distinct, group, having or union'),
      ).to.equal(false)
      expect(
        shapesRows(db('posts').distinct('title')),
        behaviour('distinct() flags its columns statement distinct'),
      ).to.equal(true)
      expect(
        shapesRows(pg('posts').distinctOn('title')),
        behaviour('distinctOn() flags its columns statement distinctOn'),
      ).to.equal(true)
      expect(shapesRows(db('posts').groupBy('title')), behaviour("groupBy() records grouping 'group'")).to.equal(true)
      expect(
        shapesRows(db('posts').groupBy('title').having('title', '>', 'a')),
        behaviour("having() records grouping 'having'"),
      ).to.equal(true)
      expect(shapesRows(db('posts').union(db('posts'))), behaviour("union() records grouping 'union'")).to.equal(true)
    })

    it('every clause is a statement with its grouping: where, columns, join, order', () => {
      expect(
        clauseOtherThanWhere(
          db
            .queryBuilder()
            .where('a', 1)
            .orWhere((q) => q.whereRaw('b = ?', [2]))
            .whereNull('c'),
        ),
        behaviour("where, orWhere, whereRaw, whereNull record grouping 'where'"),
      ).to.equal(undefined)
      expect(
        clauseOtherThanWhere(db.queryBuilder().where('a', 1).select('b')),
        behaviour("select() records grouping 'columns'"),
      ).to.equal('columns')
      expect(
        clauseOtherThanWhere(db.queryBuilder().join('users', 'a', 'b')),
        behaviour("join() records grouping 'join'"),
      ).to.equal('join')
      expect(
        clauseOtherThanWhere(db.queryBuilder().orderBy('a')),
        behaviour("orderBy() records grouping 'order'"),
      ).to.equal('order')
      expect(hasOrder(db('posts').orderByRaw('id desc')), behaviour("orderByRaw() records grouping 'order'")).to.equal(
        true,
      )
      expect(hasOrder(db('posts').where('id', 1)), behaviour('no order statement without an order')).to.equal(false)
    })

    it('a plain row list: where, order, marked joins and plain columns; not distinct, *, aggregates, locks, withSchema, other joins', () => {
      const mark = new StatementMark()
      const base = (): Knex.QueryBuilder =>
        db('posts').select('posts.id', 'posts.title').where('posts.id', '>', 1).orderBy('posts.id').limit(5)
      expect(
        isPlainRowList(base(), 'posts', mark),
        behaviour('columns/where/order/limit form a plain row list'),
      ).to.equal(true)
      const marked = base().joinRaw('left join users on users.id = posts.author_id')
      mark.markLast(marked)
      expect(
        isPlainRowList(marked, 'posts', mark),
        behaviour('joinRaw records its join as the last statement'),
      ).to.equal(true)
      expect(
        isPlainRowList(base().join('users', 'users.id', 'posts.author_id'), 'posts', mark),
        behaviour('an unmarked join is a join statement'),
      ).to.equal(false)
      expect(
        isPlainRowList(base().distinct('posts.title'), 'posts', mark),
        behaviour('distinct flags the columns statement'),
      ).to.equal(false)
      expect(isPlainRowList(base().select('*'), 'posts', mark), behaviour("select('*') records '*'")).to.equal(false)
      expect(
        isPlainRowList(base().select('posts.*'), 'posts', mark),
        behaviour("select('posts.*') records 'posts.*'"),
      ).to.equal(false)
      expect(
        isPlainRowList(base().count({ n: '*' }), 'posts', mark),
        behaviour('an aggregate columns statement has a type'),
      ).to.equal(false)
      expect(isPlainRowList(base().forUpdate(), 'posts', mark), behaviour('forUpdate() records _single.lock')).to.equal(
        false,
      )
      expect(
        isPlainRowList(pg('posts').forShare().select('posts.id').limit(1), 'posts', mark),
        behaviour('forShare() records _single.lock'),
      ).to.equal(false)
      expect(
        isPlainRowList(base().withSchema('main'), 'posts', mark),
        behaviour('withSchema() records _single.schema'),
      ).to.equal(false)
      expect(
        isPlainRowList(base().groupBy('posts.id'), 'posts', mark),
        behaviour('groupBy() is not where, order, join or columns'),
      ).to.equal(false)
    })

    it('clone() copies the statement list shallowly: a new array of the same statements, so marks survive clones', () => {
      const mark = new StatementMark()
      const joined = db('posts').where('a', 1).joinRaw('left join users on users.id = posts.author_id')
      mark.markLast(joined)
      const clone = joined.clone().orderBy('id')
      expect(
        sqlOf(mark.removeFrom(clone)).sql,
        behaviour('clone() keeps the statement objects themselves (a mark set before the clone is found on it)'),
      ).to.equal('select * from `posts` where `a` = ? order by `id` asc')
      expect(
        sqlOf(joined).sql,
        behaviour('clone() gives a new _statements array (removing from the clone leaves the original)'),
      ).to.equal('select * from `posts` left join users on users.id = posts.author_id where `a` = ?')
      expect(statementCount(joined), behaviour("a clone's new statements do not reach the original")).to.equal(2)
      const limited = db('posts').limit(5)
      limited.clone().limit(10)
      expect(
        limitOf(limited),
        behaviour("clone() copies _single (a clone's limit does not reach the original)"),
      ).to.equal(5)
    })

    it('a where group: a whereWrapped statement compiles the where statements its value pushes, parenthesised', () => {
      const query = db('posts').where('tenant', 7)
      const from = statementCount(query)
      query.whereRaw('x = ?', [1]).orWhereRaw('y = ?', [2]).orWhere('z', 3)
      groupWheres(query, from)
      expect(
        sqlOf(query),
        behaviour(
          'whereRaw/orWhereRaw/orWhere in a whereWrapped group compile as (x = ? or y = ? or z = ?) after the earlier wheres',
        ),
      ).to.deep.equal({
        sql: 'select * from `posts` where `tenant` = ? and (x = ? or y = ? or `z` = ?)',
        bindings: [7, 1, 2, 3],
      })
      expect(
        sqlOf(query.clone()),
        behaviour('a clone compiles the group again (its value runs at each compile)'),
      ).to.deep.equal(sqlOf(query))
      const leading = db('posts').where('a', 1).orWhere('b', 2).select('id').orderBy('id')
      groupWheres(leading)
      expect(sqlOf(leading).sql, behaviour('the group keeps the other clauses where knex puts them')).to.equal(
        'select `id` from `posts` where (`a` = ? or `b` = ?) order by `id` asc',
      )
      const noOr = db('posts').where('a', 1).where('b', 2)
      groupWheres(noOr)
      expect(sqlOf(noOr).sql, behaviour('wheres without an or are left as they are')).to.equal(
        'select * from `posts` where `a` = ? and `b` = ?',
      )
    })

    it('where statements copied onto another builder compile there, bindings in order', () => {
      const from = db('posts')
        .select('id')
        .where('a', 1)
        .whereRaw('b = ?', [2])
        .whereIn('c', [3, 4])
        .orderBy('id')
        .limit(9)
      const to = db('users').where('d', 0)
      copyWheres(from, to)
      expect(sqlOf(to), behaviour('pushed where statements compile with their own bindings')).to.deep.equal({
        sql: 'select * from `users` where `d` = ? and `a` = ? and b = ? and `c` in (?, ?)',
        bindings: [0, 1, 2, 3, 4],
      })
    })

    it('whereRaw(raw) records the raw itself as the where statement; a raw in _single.limit compiles as the limit', () => {
      const list = db.raw('a in (?)', [1])
      const walk = db.raw('exists (select ?)', [2])
      const query = db('posts').where('b', 0).orWhereRaw(list).orderBy('id')
      expect(
        [holdsWhereRaw(query, list), holdsWhereRaw(query, walk)],
        behaviour('whereRaw(raw) records a where statement whose value is the raw'),
      ).to.deep.equal([true, false])
      const copy = query.clone()
      replaceWhereRaw(copy, list, walk)
      expect(
        sqlOf(copy),
        behaviour('a where statement with another raw value compiles that raw, with its bool'),
      ).to.deep.equal({
        sql: 'select * from `posts` where `b` = ? or exists (select ?) order by `id` asc',
        bindings: [0, 2],
      })
      expect(sqlOf(query).sql, behaviour('replacing a statement of a clone leaves the original')).to.equal(
        'select * from `posts` where `b` = ? or a in (?) order by `id` asc',
      )
      for (const client of [db, pg]) {
        const limited = client('posts').select('id').offset(5)
        limitByRaw(limited, client.raw('case when ? then ? else 0 end', [true, 20]))
        expect(
          sqlOf(limited).bindings,
          behaviour(`a raw _single.limit is compiled with its bindings (${client.client.config.client})`),
        ).to.deep.equal([true, 20, 5])
        expect(
          sqlOf(limited).sql,
          behaviour(`a raw _single.limit compiles as limit <raw> (${client.client.config.client})`),
        ).to.match(/ limit case when (\?|\$1) then (\?|\$2) else 0 end offset (\?|\$3)$/)
      }
    })

    it("a raw _single.limit holding a raw compiles inline, every binding in place (the frequency guard's limit)", () => {
      const query = db('posts').select('id').where('a', 1).orderBy('id').offset(5)
      limitByRaw(
        query,
        db.raw('case when ? < 3 then ? else 0 end', [db.raw('(select count(*) from tags where name = ?)', ['x']), 20]),
      )
      expect(sqlOf(query), behaviour('a raw limit compiles inline and binds in place')).to.deep.equal({
        sql: 'select `id` from `posts` where `a` = ? order by `id` asc limit case when (select count(*) from tags where name = ?) < 3 then ? else 0 end offset ?',
        bindings: [1, 'x', 20, 5],
      })
    })

    it('joins compile in the order of their statements', () => {
      const query = db('posts').join('users', 'users.id', 'posts.author_id')
      query.crossJoin('tags', function (this: Knex.JoinClause) {
        this.on('tags.id', '=', 'posts.tag_id')
      })
      putLastJoinFirst(query)
      expect(
        sqlOf(query).sql,
        behaviour('a crossJoin with on compiles as cross join … on, and statement order is join order'),
      ).to.equal(
        'select * from `posts` cross join `tags` on `tags`.`id` = `posts`.`tag_id` inner join `users` on `users`.`id` = `posts`.`author_id`',
      )
    })

    it('options() appends to _options', () => {
      expect(
        statementOptionsOf(db('posts').options({ nestTables: true }).options({ rowMode: 'array' })),
        behaviour('options() records each object in _options'),
      ).to.deep.equal([{ nestTables: true }, { rowMode: 'array' }])
      expect(statementOptionsOf(db('posts')), behaviour('no _options without options()')).to.deep.equal([])
    })

    it('compiles only the where clause through client.queryCompiler(builder).where(), with its bindings and undefined values', () => {
      const query = db('posts').select('id').where('a', 1).whereIn('b', [2, 3]).orderBy('id').limit(4)
      expect(compileWhere(query), behaviour('queryCompiler(builder).where() and .bindings')).to.deep.equal({
        sql: 'where `a` = ? and `b` in (?, ?)',
        bindings: [1, 2, 3],
        undefinedColumns: [],
      })
      expect(compileWhere(db.queryBuilder()).sql, behaviour('where() of a builder without wheres is empty')).to.equal(
        '',
      )
      expect(
        compileWhere(db.queryBuilder().where('a', undefined as unknown as number)).undefinedColumns,
        behaviour('_undefinedInWhereClause and undefinedBindingsInfo name a column compared with undefined'),
      ).to.deep.equal(['a'])
    })
  })

  describe('replaced methods and clones (builder-methods.ts)', () => {
    it('clone() does not copy own properties; a replaced row reading keeps its then/stream on every clone; statementCopy keeps toSQL', () => {
      const key = Symbol('test')
      const query = db('posts')
      Object.assign(query, { [key]: 'carried' })
      compileAs(query, () => db('users'))
      expect(sqlOf(query).sql, behaviour('toSQL() called on a builder is its own toSQL')).to.equal(
        'select * from `users`',
      )
      expect(
        sqlOf(query.clone()).sql,
        behaviour('clone() builds a fresh builder (an own toSQL is not copied)'),
      ).to.equal('select * from `posts`')
      expect(
        Object.getOwnPropertyDescriptor(query.clone(), key),
        behaviour('clone() does not copy own properties'),
      ).to.equal(undefined)
      expect(sqlOf(statementCopy(query)).sql, behaviour('statementCopy keeps an own toSQL')).to.equal(
        'select * from `users`',
      )
      const then = function (this: Knex.QueryBuilder) {
        return Promise.resolve('own then')
      }
      const reading = db('posts')
      replaceRowReading(reading, {
        then,
        stream(options) {
          return streamAsKnex(this, options)
        },
      })
      const grandchild = reading.clone().clone()
      expect(
        [Object.hasOwn(grandchild, 'then'), Object.hasOwn(grandchild, 'stream')],
        behaviour('clone() is the own clone (it copies the row reading)'),
      ).to.deep.equal([true, true])
    })

    for (const database of testDatabases()) {
      describe(`running a builder (${database.name})`, () => {
        it("await and stream() compile through the builder's own toSQL(), called without a method", async () => {
          const query = database.knex('users').select('id').where('id', 1)
          const methods: Array<string | undefined> = []
          compileAs(query, (self, method) => {
            methods.push(method)
            return self.clone().where('id', 0)
          })
          const { result, queries } = await countQueries(database.knex, async () => (await query) as unknown[])
          expect(
            queries.map((event) => [...(event.bindings ?? [])]),
            behaviour("the runner compiles through the builder's toSQL()"),
          ).to.deep.equal([[1, 0]])
          expect(result, behaviour("the runner runs the SQL of the builder's toSQL()")).to.deep.equal([])
          // knex streams from pg only with pg-query-stream, which the suite does not install.
          if (database.name !== 'postgres') {
            expect(
              await read(streamAsKnex(query)),
              behaviour("stream() compiles through the builder's toSQL()"),
            ).to.deep.equal([])
          } else methods.push(undefined)
          const first = database.knex('users').first('id').where('id', 1)
          compileAs(first, (self, method) => {
            methods.push(method, methodOf(self))
            return undefined
          })
          expect(
            Number(((await first) as { id: unknown }).id),
            behaviour('first() runs as first when its toSQL compiles itself'),
          ).to.equal(1)
          expect(
            methods,
            behaviour("the runner calls toSQL() without a method (the builder's _method says it)"),
          ).to.deep.equal([undefined, undefined, undefined, 'first'])
        })

        it("await and catch() go through the builder's own then; runAsKnex and streamAsKnex run as knex would", async () => {
          const query = database.knex('users').select('id').where('id', 1)
          replaceRowReading(query, {
            then(this: Knex.QueryBuilder, onFulfilled, onRejected) {
              return runAsKnex(this)
                .then((rows) => ({ wrapped: rows }))
                .then(onFulfilled, onRejected)
            },
            stream(options) {
              return streamAsKnex(this, options)
            },
          })
          const awaited = (await query) as unknown as { wrapped: Array<{ id: unknown }> }
          expect(awaited, behaviour('await uses an own then')).to.have.property('wrapped')
          expect(awaited.wrapped.map((row) => Number(row.id))).to.deep.equal([1])
          expect(
            await query.clone().catch(() => 'failed'),
            behaviour('catch() goes through then (and a clone keeps the replaced then)'),
          ).to.have.property('wrapped')
          expect(
            ((await runAsKnex(query)) as Array<{ id: unknown }>).map((row) => Number(row.id)),
            behaviour("the prototype's then runs the builder as knex would"),
          ).to.deep.equal([1])
          if (database.name !== 'postgres') {
            expect(
              ((await read(streamAsKnex(query))) as Array<{ id: unknown }>).map((row) => Number(row.id)),
              behaviour("the prototype's stream() gives the rows as objects"),
            ).to.deep.equal([1])
          }
          const raw = (await runAsKnex(database.knex.raw('select 1 as one'))) as unknown
          expect(raw, behaviour("a raw's prototype then runs it")).not.to.equal(undefined)
        })
      })
    }
  })

  describe('what a client holds and does (client.ts)', () => {
    it('the configuration (the same object for a knex instance and its transactions), and the driver', () => {
      const settings = { filename: ':memory:' }
      expect(knexConfigOf(db.client)?.client, behaviour('client.config is the configuration given to knex()')).to.equal(
        'better-sqlite3',
      )
      expect(
        knexConfigOf(db.client)?.connection,
        behaviour('client.config.connection is the connection given'),
      ).to.deep.equal(settings)
      const names = ['pg', 'postgres', 'postgresql', 'mysql', 'mysql2', 'better-sqlite3', 'sqlite3'].map(
        (client) => knexConfigOf(knex({ client, useNullAsDefault: true }).client)?.client,
      )
      expect(names, behaviour('client.config.client is the client name given to knex()')).to.deep.equal([
        'pg',
        'postgres',
        'postgresql',
        'mysql',
        'mysql2',
        'better-sqlite3',
        'sqlite3',
      ])
      const connection = { host: '127.0.0.1', user: 'nobody' }
      const withDriver = knex({ client: 'pg', connection })
      const driver = driverOf(withDriver.client)
      void withDriver.destroy()
      expect(driver.name, behaviour('client.driverName of pg')).to.equal('pg')
      expect(
        typeof (driver.module as { types?: { getTypeParser?: unknown } }).types?.getTypeParser,
        behaviour('client.driver is the loaded pg module'),
      ).to.equal('function')
      expect(driver.connectionSettings, behaviour('client.connectionSettings is the connection given')).to.deep.equal(
        connection,
      )
    })

    it('quotes identifiers through client.wrapIdentifier and aliases through client.alias, with a configured wrapIdentifier hook', async () => {
      const quoting = identifierQuotingOf(db.client)
      expect(
        [quoting.hooked, quoting.wrap('posts', undefined), quoting.alias('`a`', '`b`')],
        behaviour('client.wrapIdentifier and client.alias'),
      ).to.deep.equal([false, '`posts`', '`a` as `b`'])
      expect(
        identifierQuotingOf(pg.client).wrap('posts', undefined),
        behaviour('client.wrapIdentifier on PostgreSQL'),
      ).to.equal('"posts"')
      const hooked = knex({
        client: 'pg',
        wrapIdentifier: (value, origImpl, context) => origImpl(`${value}_${String(context)}`),
      })
      try {
        const hookedQuoting = identifierQuotingOf(hooked.client)
        expect(
          [hookedQuoting.hooked, hookedQuoting.wrap('posts', 'x')],
          behaviour('config.wrapIdentifier is called by client.wrapIdentifier with the query context'),
        ).to.deep.equal([true, '"posts_x"'])
        expect(hooked('posts').queryContext('x').toSQL().sql, behaviour('queryContext() reaches the hook')).to.equal(
          'select * from "posts_x"',
        )
      } finally {
        await hooked.destroy()
      }
    })

    describe('on a database', () => {
      const local = knex({
        client: 'better-sqlite3',
        connection: { filename: ':memory:' },
        useNullAsDefault: true,
        pool: { min: 1, max: 1 },
      })
      before(() => local.schema.createTable('kqp_things', (table) => table.integer('id')))
      after(() => local.destroy())

      it('a knex instance and its transactions share a client configuration; a transaction client is transacting', async () => {
        await local.transaction(async (trx) => {
          expect(knexClientOf(trx), behaviour('a transaction is a function with .client')).to.equal(trx.client)
          expect(knexClientOf(local), behaviour('a knex instance is a function with .client')).to.equal(local.client)
          expect(knexConfigOf(trx.client), behaviour('a transaction client keeps the instance configuration')).to.equal(
            knexConfigOf(local.client),
          )
          expect(
            [inTransaction(local.client), inTransaction(trx.client)],
            behaviour('client.transacting is true on a transaction client only'),
          ).to.deep.equal([false, true])
        })
      })

      it('client.transaction(handler, config, null) resolves to the result after commit, rejects after rollback', async () => {
        const committed = await runInTransaction(
          local.client,
          async (trx) => {
            await trx('kqp_things').insert({ id: 1 })
            return 'done'
          },
          undefined,
        )
        expect(committed, behaviour('client.transaction settles with the handler result')).to.equal('done')
        const failure = new Error('handler failed')
        const rejected = await runInTransaction(
          local.client,
          async (trx) => {
            await trx('kqp_things').insert({ id: 2 })
            throw failure
          },
          undefined,
        ).catch((error: unknown) => error)
        expect(rejected, behaviour('client.transaction rejects with the handler error')).to.equal(failure)
        expect(
          (await local('kqp_things').select('id')).map((row: { id: number }) => row.id),
          behaviour('client.transaction commits, or rolls back on error'),
        ).to.deep.equal([1])
      })

      it('a pool connection runs builders given .connection(…) without taking another; raw connections stay outside the pool', async () => {
        const connection = await acquireConnection(local.client)
        try {
          const rows = await Promise.race([
            runAsKnex(local('kqp_things').select('id').connection(connection)),
            new Promise((_, reject) => setTimeout(() => reject(new Error('waited for a second connection')), 2_000)),
          ])
          expect(
            rows,
            behaviour('.connection(c) runs on the acquired connection (a pool of one does not block)'),
          ).to.deep.equal([{ id: 1 }])
        } finally {
          await releaseConnection(local.client, connection)
        }
        expect(
          await local('kqp_things').count({ n: '*' }),
          behaviour('releaseConnection gives the connection back'),
        ).to.deep.equal([{ n: 1 }])
        const raw = await acquireRawConnection(local.client)
        try {
          expect(
            await local('kqp_things').count({ n: '*' }),
            behaviour('acquireRawConnection does not take from the pool'),
          ).to.deep.equal([{ n: 1 }])
          expect(
            typeof (raw as { prepare?: unknown }).prepare,
            behaviour('acquireRawConnection gives a driver connection'),
          ).to.equal('function')
        } finally {
          await destroyRawConnection(local.client, raw)
        }
        expect((raw as { open?: boolean }).open, behaviour('destroyRawConnection closes it')).to.equal(false)
      })
    })
  })
})
