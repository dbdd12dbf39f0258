import { expect } from 'chai'
import type { RelationMap } from '../../lib/index.ts'
import { checkRelationMap } from '../../lib/introspect.ts'
import { dropFreshDatabase, freshDatabase } from '../introspect/support/fresh-database.ts'
import { testDatabases, type TestDatabase } from '../support/databases.ts'

const TS = { sqlite: 'timestamp', postgres: 'timestamp without time zone', mysql: 'datetime' } as const

for (const database of testDatabases()) {
  describe(`checkRelationMap: composite relation keys (${database.label})`, function () {
    this.timeout(60_000)
    let own: TestDatabase

    before(async () => {
      own = await freshDatabase(database, 'composite_check')
      const ts = TS[database.name]
      const run = (sql: string): Promise<unknown> => own.knex.raw(sql) as Promise<unknown>
      await run(`create table stay (stay_id integer not null, started ${ts} not null, primary key (stay_id, started))`)
      await run(
        `create table stay_line (line_id integer primary key, stay_id integer not null, started ${ts} not null, ` +
          'code varchar(10) not null, foreign key (stay_id, started) references stay (stay_id, started))',
      )
      await run(
        `create table stay_copy (copy_id integer primary key, stay_id integer not null, started ${ts} not null)`,
      )
    })

    after(async () => {
      await dropFreshDatabase(own)
    })

    const columns = {
      stay: { stay_id: 'integer', started: 'datetime' },
      stay_line: { line_id: 'integer', stay_id: 'integer', started: 'datetime', code: 'string' },
      stay_copy: { copy_id: 'integer', stay_id: 'integer', started: 'datetime' },
    } as const
    const base = (): RelationMap => ({
      stay: {
        primaryKey: ['stay_id', 'started'],
        columns: { ...columns.stay },
        relations: { lines: { type: 'hasMany', table: 'stay_line', foreignKey: ['stay_id', 'started'] } },
      },
      stay_line: {
        primaryKey: 'line_id',
        columns: { ...columns.stay_line },
        relations: {
          stay: { type: 'belongsTo', table: 'stay', foreignKey: ['stay_id', 'started'], required: true },
        },
      },
      stay_copy: {
        primaryKey: 'copy_id',
        columns: { ...columns.stay_copy },
        // No foreign key, but the referenced columns are stay's primary key: backed by it.
        relations: { stay: { type: 'belongsTo', table: 'stay', foreignKey: ['stay_id', 'started'] } },
      },
    })
    const relationProblems = async (map: RelationMap): Promise<Array<[string, string]>> =>
      (await checkRelationMap(own.knex, map))
        .filter((problem) => problem.path.includes('.relations.'))
        .map((problem) => [problem.kind, problem.path])

    it('a composite key backed by a foreign key or by the referenced primary key is clean, required included', async () => {
      // Only the columns' NOT NULL, left undeclared here, is reported (warnings); nothing about the relations.
      const problems = await checkRelationMap(own.knex, base())
      expect(problems.filter((problem) => problem.level === 'error')).to.deep.equal([])
      expect(await relationProblems(base())).to.deep.equal([])
    })

    it('missing_key names the column of a composite key that does not exist, by its index', async () => {
      const map = base()
      map['stay_line'] = {
        ...map['stay_line'],
        columns: { ...columns.stay_line },
        relations: { stay: { type: 'belongsTo', table: 'stay', foreignKey: ['stay_id', 'started_at'] } },
      }
      expect(await relationProblems(map)).to.deep.equal([['missing_key', 'stay_line.relations.stay.foreignKey[1]']])
    })

    it('relation_key_type_mismatch: paired columns of different types (a string paired with a date-time)', async () => {
      const map = base()
      map['stay_line'] = {
        ...map['stay_line'],
        columns: { ...columns.stay_line },
        relations: { stay: { type: 'belongsTo', table: 'stay', foreignKey: ['stay_id', 'code'] } },
      }
      const problems = (await checkRelationMap(own.knex, map)).filter((problem) => problem.path.includes('.relations.'))
      expect(problems.map((problem) => [problem.kind, problem.level, problem.path])).to.deep.equal([
        ['relation_key_type_mismatch', 'error', 'stay_line.relations.stay.foreignKey[1]'],
        // Nor does a foreign key pair (stay_id, code) with stay's key; the key is still unique there, so it is backed.
      ])
      expect(problems[0]?.message).to.match(
        /^stay_line\.code is string \(.+\) but the column it is paired with, stay\.started, is datetime/,
      )
    })

    it('relation_key_unbacked: no foreign key, and the referenced columns are neither a primary key nor unique', async () => {
      const map = base()
      map['stay_copy'] = {
        ...map['stay_copy'],
        columns: { ...columns.stay_copy },
        relations: {
          lines: {
            type: 'belongsTo',
            table: 'stay_line',
            foreignKey: ['stay_id', 'started'],
            ownerKey: ['stay_id', 'started'],
          },
        },
      }
      map['stay'] = {
        ...map['stay'],
        columns: { ...columns.stay },
        relations: {
          copies: { type: 'hasMany', table: 'stay_copy', foreignKey: ['stay_id', 'started'] },
          lines: { type: 'hasMany', table: 'stay_line', foreignKey: ['stay_id', 'started'] },
        },
      }
      expect(await relationProblems(map)).to.deep.equal([
        ['relation_key_unbacked', 'stay_copy.relations.lines.foreignKey'],
      ])
    })
  })
}
