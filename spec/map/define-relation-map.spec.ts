import { expect } from 'chai'
import { relationMap } from '../../fixtures/relation-map.ts'
import { defineRelationMap } from '../../lib/map/define-relation-map.ts'
import type { RelationMap } from '../../lib/relation-map.ts'

/** A small valid map, fresh on every call, for each test to break in one place. */
function validMap(): Record<string, Record<string, unknown>> {
  return {
    users: {
      columns: { id: 'integer', name: 'string', email: { type: 'string', nullable: false, unique: true } },
      relations: {
        team: { type: 'belongsTo', table: 'teams', foreignKey: 'team_id', required: true },
        posts: { type: 'hasMany', table: 'posts', foreignKey: 'user_id' },
        images: { type: 'morphMany', table: 'images', name: 'imageable', morphType: 'User' },
      },
      scopes: { admins: (): void => {} },
      guard: (): void => {},
    },
    teams: { columns: { id: 'integer', name: 'string' } },
    posts: {
      primaryKey: 'post_id',
      columns: { post_id: 'integer', user_id: 'integer', title: 'string' },
      relations: {
        tags: {
          type: 'belongsToMany',
          table: 'tags',
          pivotTable: 'post_tag',
          foreignPivotKey: 'post_id',
          relatedPivotKey: 'tag_id',
        },
      },
    },
    tags: { columns: { id: 'integer', name: 'string' } },
    images: {
      columns: { id: 'integer', url: 'string' },
      relations: { imageable: { type: 'morphTo', name: 'imageable', types: { User: 'users', Post: 'posts' } } },
    },
  }
}

type MapTable = Record<string, unknown>

/** `validMap()` with `change` applied to it. */
function mapWith(change: (map: Record<string, MapTable>) => void): unknown {
  const map = validMap()
  change(map)
  return map
}

function relationOf(map: Record<string, MapTable>, table: string, name: string): Record<string, unknown> {
  return (map[table]?.relations as Record<string, Record<string, unknown>> | undefined)?.[name] as Record<
    string,
    unknown
  >
}

function columnsOf(map: Record<string, MapTable>, table: string): Record<string, unknown> {
  return map[table]?.columns as Record<string, unknown>
}

/** The message `defineRelationMap(map)` throws; fails when it does not throw a plain Error. */
function messageFor(map: unknown): string {
  let thrown: unknown
  try {
    defineRelationMap(map as RelationMap)
  } catch (error) {
    thrown = error
  }
  expect(thrown, 'expected defineRelationMap to throw').to.be.instanceOf(Error)
  expect((thrown as Error).constructor).to.equal(Error)
  return (thrown as Error).message.replace(/^knex-query-params: /, '')
}

const RELATION_TYPES = 'belongsTo, hasOne, hasMany, belongsToMany, morphOne, morphMany, morphTo'
const COLUMN_TYPES = 'string, integer, number, boolean, date, datetime, bigint, decimal, json'

describe('defineRelationMap', () => {
  it('returns the very map it is given, and accepts the fixture map covering every relation type', () => {
    const map = validMap() as unknown as RelationMap
    expect(defineRelationMap(map)).to.equal(map)
    expect(defineRelationMap(relationMap)).to.equal(relationMap)
  })

  it('accepts keys that are not allow-listed columns (they are selected for matching only)', () => {
    const map = mapWith((m) => {
      relationOf(m, 'users', 'team').ownerKey = 'code'
      relationOf(m, 'users', 'posts').localKey = 'legacy_id'
    })
    expect(() => defineRelationMap(map as RelationMap)).not.to.throw()
  })

  describe('the map and its tables', () => {
    it('the map must be an object', () => {
      const expected = (got: string): string =>
        `knex-query-params: the relation map must be an object of table definitions ({ users: { columns: { … } } }), got ${got}`
      expect(() => defineRelationMap(undefined as unknown as RelationMap)).to.throw(Error, expected('undefined'))
      expect(() => defineRelationMap([] as unknown as RelationMap)).to.throw(Error, expected('an array'))
    })

    it('each table must be an object', () => {
      expect(messageFor({ ...validMap(), users: 'users' })).to.equal(
        `users: expected a table definition ({ columns, relations?, scopes?, primaryKey?, guard? }), got 'users'`,
      )
    })

    it('a table may have only the known keys, with a suggestion for a typo', () => {
      expect(
        messageFor(
          mapWith((m) => {
            m.teams = { column: { id: 'integer' } }
          }),
        ),
      ).to.equal(
        `teams.column: unknown key (did you mean 'columns'?); a table takes primaryKey, columns, relations, aggregates, scopes, guard, search`,
      )
      expect(
        messageFor(
          mapWith((m) => {
            ;(m.teams as MapTable).softDeletes = true
          }),
        ),
      ).to.equal(
        `teams.softDeletes: unknown key; a table takes primaryKey, columns, relations, aggregates, scopes, guard, search`,
      )
    })

    it('columns is required and must be an object', () => {
      expect(
        messageFor(
          mapWith((m) => {
            m.teams = {}
          }),
        ),
      ).to.equal(`teams.columns: expected the allow-listed columns ({ id: 'integer', … }), got undefined`)
      expect(
        messageFor(
          mapWith((m) => {
            m.teams = { columns: ['id'] }
          }),
        ),
      ).to.equal(`teams.columns: expected the allow-listed columns ({ id: 'integer', … }), got an array`)
    })
  })

  describe('columns', () => {
    it('a column type must be one of the nine', () => {
      expect(
        messageFor(
          mapWith((m) => {
            columnsOf(m, 'users').name = 'text'
          }),
        ),
      ).to.equal(`users.columns.name: 'text' is not a column type; expected one of ${COLUMN_TYPES}`)
      expect(
        messageFor(
          mapWith((m) => {
            columnsOf(m, 'users').name = 'String'
          }),
        ),
      ).to.equal(
        `users.columns.name: 'String' is not a column type; expected one of ${COLUMN_TYPES} (did you mean 'string'?)`,
      )
      expect(
        messageFor(
          mapWith((m) => {
            columnsOf(m, 'users').name = 'datetme'
          }),
        ),
      ).to.equal(
        `users.columns.name: 'datetme' is not a column type; expected one of ${COLUMN_TYPES} (did you mean 'datetime'?)`,
      )
    })

    it('a column is a type or a definition object', () => {
      expect(
        messageFor(
          mapWith((m) => {
            columnsOf(m, 'users').name = 1
          }),
        ),
      ).to.equal(
        `users.columns.name: expected a column type (${COLUMN_TYPES}) or { type, nullable?, unique?, column? }, got 1`,
      )
    })

    it('a column definition needs a valid type', () => {
      expect(
        messageFor(
          mapWith((m) => {
            columnsOf(m, 'users').email = { nullable: false }
          }),
        ),
      ).to.equal(`users.columns.email.type: missing; a column definition needs its type (${COLUMN_TYPES})`)
      expect(
        messageFor(
          mapWith((m) => {
            columnsOf(m, 'users').email = { type: 'varchar' }
          }),
        ),
      ).to.equal(`users.columns.email.type: 'varchar' is not a column type; expected one of ${COLUMN_TYPES}`)
      expect(
        messageFor(
          mapWith((m) => {
            columnsOf(m, 'users').email = { type: true }
          }),
        ),
      ).to.equal(`users.columns.email.type: true is not a column type; expected one of ${COLUMN_TYPES}`)
    })

    it('nullable and unique are booleans', () => {
      expect(
        messageFor(
          mapWith((m) => {
            columnsOf(m, 'users').email = { type: 'string', nullable: 'no' }
          }),
        ),
      ).to.equal(`users.columns.email.nullable: expected true or false, got 'no'`)
      expect(
        messageFor(
          mapWith((m) => {
            columnsOf(m, 'users').email = { type: 'string', unique: 1 }
          }),
        ),
      ).to.equal(`users.columns.email.unique: expected true or false, got 1`)
    })

    it('a column definition has no other keys', () => {
      expect(
        messageFor(
          mapWith((m) => {
            columnsOf(m, 'users').email = { type: 'string', nulable: false }
          }),
        ),
      ).to.equal(
        `users.columns.email.nulable: unknown key (did you mean 'nullable'?); a column definition takes type, nullable, unique, column, storage, sortable, filterable, operators, precision, values, padded`,
      )
    })

    it('sortable and filterable are booleans', () => {
      expect(
        messageFor(
          mapWith((m) => {
            columnsOf(m, 'users').email = { type: 'string', sortable: 'no' }
          }),
        ),
      ).to.equal(`users.columns.email.sortable: expected true or false, got 'no'`)
      expect(
        messageFor(
          mapWith((m) => {
            columnsOf(m, 'users').email = { type: 'string', filterable: 0 }
          }),
        ),
      ).to.equal(`users.columns.email.filterable: expected true or false, got 0`)
    })

    it('operators is a non-empty list of known operators the type takes, not with filterable: false', () => {
      const message = (operators: unknown, type = 'string', more: Record<string, unknown> = {}): string =>
        messageFor(
          mapWith((m) => {
            columnsOf(m, 'users').email = { type, operators, ...more }
          }),
        )
      expect(message(['=', 'ilike'])).to.equal(
        `users.columns.email.operators.1: 'ilike' is not an operator; expected one of =, !=, <, <=, >, >=, like, in, notIn, between, notBetween (did you mean 'like'?)`,
      )
      expect(message(['=', 3])).to.equal(
        `users.columns.email.operators.1: 3 is not an operator; expected one of =, !=, <, <=, >, >=, like, in, notIn, between, notBetween`,
      )
      expect(message('=')).to.equal(
        `users.columns.email.operators: expected a list of operators (=, !=, <, <=, >, >=, like, in, notIn, between, notBetween), got '='`,
      )
      expect(message([])).to.equal(
        `users.columns.email.operators: an empty list allows no filter; declare filterable: false instead`,
      )
      expect(message(['in', 'like'], 'integer')).to.equal(
        `users.columns.email.operators.1: 'like' only applies to string columns, and this one is 'integer'`,
      )
      expect(message(['='], 'string', { filterable: false })).to.equal(
        `users.columns.email.operators: the column is declared filterable: false, so no operator applies; remove one of the two`,
      )
      expect(
        defineRelationMap(
          mapWith((m) => {
            columnsOf(m, 'users').email = {
              type: 'string',
              sortable: false,
              filterable: true,
              operators: ['=', 'in', 'like'],
            }
          }) as RelationMap,
        ),
      ).to.be.an('object')
    })
  })

  describe('primaryKey', () => {
    it('must be a column name', () => {
      expect(
        messageFor(
          mapWith((m) => {
            ;(m.posts as MapTable).primaryKey = 5
          }),
        ),
      ).to.equal(`posts.primaryKey: expected a column name or a list of column names, got 5`)
      expect(
        messageFor(
          mapWith((m) => {
            ;(m.posts as MapTable).primaryKey = ''
          }),
        ),
      ).to.equal(`posts.primaryKey: expected a column name or a list of column names, got ''`)
    })

    it('must be among the columns', () => {
      expect(
        messageFor(
          mapWith((m) => {
            ;(m.posts as MapTable).primaryKey = 'uuid'
          }),
        ),
      ).to.equal(`posts.primaryKey: the primary key 'uuid' is not among the columns of posts; add it to columns`)
      expect(
        messageFor(
          mapWith((m) => {
            ;(m.posts as MapTable).primaryKey = 'postid'
          }),
        ),
      ).to.equal(
        `posts.primaryKey: the primary key 'postid' is not among the columns of posts; add it to columns (did you mean 'post_id'?)`,
      )
    })

    it('defaults to id, which must then be among the columns', () => {
      expect(
        messageFor(
          mapWith((m) => {
            m.tags = { columns: { tag_id: 'integer', name: 'string' } }
          }),
        ),
      ).to.equal(
        `tags.primaryKey: the primary key 'id' is not among the columns of tags; declare the key column in columns, and name it in primaryKey if it is not 'id'`,
      )
    })

    it('names database columns, not client names', () => {
      const aliased = mapWith((m) => {
        m.posts = {
          primaryKey: 'postId',
          columns: { postId: { type: 'integer', column: 'PostId' }, user_id: 'integer' },
        }
      })
      expect(messageFor(aliased)).to.equal(
        `posts.primaryKey: 'postId' is a client name; primaryKey names database columns, here 'PostId'`,
      )
      expect(() =>
        defineRelationMap(
          mapWith((m) => {
            m.posts = {
              primaryKey: 'PostId',
              columns: { postId: { type: 'integer', column: 'PostId' }, user_id: 'integer' },
            }
          }) as RelationMap,
        ),
      ).not.to.throw()
    })

    it('may list the columns of a composite key: a non-empty list of distinct columns among the columns', () => {
      const composite = (primaryKey: unknown) =>
        mapWith((m) => {
          m.tags = { primaryKey, columns: { tag_id: 'integer', post_id: 'integer', name: 'string' } }
          relationOf(m, 'posts', 'tags').relatedKey = 'tag_id'
        })
      expect(() => defineRelationMap(composite(['tag_id', 'post_id']) as RelationMap)).not.to.throw()
      expect(messageFor(composite([]))).to.equal(
        `tags.primaryKey: expected a column name or a non-empty list of column names, got an empty array`,
      )
      expect(messageFor(composite(['tag_id', 3]))).to.equal(`tags.primaryKey.1: expected a column name, got 3`)
      expect(messageFor(composite(['tag_id', '']))).to.equal(`tags.primaryKey.1: expected a column name, got ''`)
      expect(messageFor(composite(['tag_id', 'tag_id']))).to.equal(
        `tags.primaryKey.1: 'tag_id' is already in the key; list each key column once`,
      )
      expect(messageFor(composite(['tag_id', 'postid']))).to.equal(
        `tags.primaryKey: the primary key 'postid' is not among the columns of tags; add it to columns (did you mean 'post_id'?)`,
      )
    })

    it('a relation key may not default to a composite primary key', () => {
      const compositeTags = (m: Record<string, Record<string, unknown>>): void => {
        m.tags = {
          primaryKey: ['tag_id', 'post_id'],
          columns: { tag_id: 'integer', post_id: 'integer', name: 'string' },
        }
      }
      expect(messageFor(mapWith(compositeTags))).to.equal(
        `posts.relations.tags.relatedKey: missing; it would default to the composite primary key of tags (tag_id, post_id), and a relation links through one column: name it`,
      )
      expect(
        messageFor(
          mapWith((m) => {
            compositeTags(m)
            ;(m.posts as MapTable).relations = {
              tags: {
                type: 'belongsToMany',
                table: 'tags',
                pivotTable: 'post_tag',
                foreignPivotKey: 'post_id',
                relatedPivotKey: 'tag_id',
                relatedKey: 'tag_id',
              },
            }
            ;(m.tags as MapTable).relations = { posts: { type: 'hasMany', table: 'posts', foreignKey: 'tag_id' } }
          }),
        ),
      ).to.equal(
        `tags.relations.posts.localKey: missing; it would default to the composite primary key of tags (tag_id, post_id), and a relation links through one column: name it`,
      )
      expect(
        messageFor(
          mapWith((m) => {
            compositeTags(m)
            ;(m.posts as MapTable).relations = { tag: { type: 'belongsTo', table: 'tags', foreignKey: 'tag_id' } }
          }),
        ),
      ).to.equal(
        `posts.relations.tag.ownerKey: missing; it would default to the composite primary key of tags (tag_id, post_id), and a relation links through one column: name it`,
      )
      expect(
        messageFor(
          mapWith((m) => {
            m.posts = {
              primaryKey: ['post_id', 'user_id'],
              columns: { post_id: 'integer', user_id: 'integer', title: 'string' },
            }
          }),
        ),
      ).to.equal(
        `images.relations.imageable.types.Post: table 'posts' has a composite primary key (post_id, user_id); a morphTo target is found by one key column`,
      )
    })
  })

  describe('column aliases', () => {
    const withColumns = (columns: Record<string, unknown>) =>
      mapWith((m) => {
        m.teams = { columns }
      })

    it('column is a non-empty string', () => {
      expect(() =>
        defineRelationMap(
          withColumns({ id: 'integer', teamName: { type: 'string', column: 'TeamName' } }) as RelationMap,
        ),
      ).not.to.throw()
      expect(messageFor(withColumns({ id: 'integer', teamName: { type: 'string', column: '' } }))).to.equal(
        `teams.columns.teamName.column: expected the database column's name, got ''`,
      )
      expect(messageFor(withColumns({ id: 'integer', teamName: { type: 'string', column: 7 } }))).to.equal(
        `teams.columns.teamName.column: expected the database column's name, got 7`,
      )
    })

    it('two client names for one database column are a mistake', () => {
      expect(
        messageFor(withColumns({ id: 'integer', name: 'string', teamName: { type: 'string', column: 'name' } })),
      ).to.equal(
        `teams.columns.teamName: the database column 'name' is already declared as 'name'; declare each database column once`,
      )
      expect(
        messageFor(
          withColumns({ id: 'integer', a: { type: 'string', column: 'Name' }, b: { type: 'string', column: 'Name' } }),
        ),
      ).to.equal(
        `teams.columns.b: the database column 'Name' is already declared as 'a'; declare each database column once`,
      )
    })

    it("a client name that is another column's database name is a mistake", () => {
      expect(
        messageFor(
          withColumns({
            id: 'integer',
            teamName: { type: 'string', column: 'TeamName' },
            TeamName: { type: 'string', column: 'label' },
          }),
        ),
      ).to.equal(
        `teams.columns.TeamName: the client name 'TeamName' is the database column of 'teamName'; keys and guards name database columns, so pick another client name`,
      )
    })
  })

  describe('relations', () => {
    it('relations must be an object of objects', () => {
      expect(
        messageFor(
          mapWith((m) => {
            ;(m.teams as MapTable).relations = []
          }),
        ),
      ).to.equal(`teams.relations: expected an object of relation definitions, got an array`)
      expect(
        messageFor(
          mapWith((m) => {
            ;(m.teams as MapTable).relations = { owner: 'users' }
          }),
        ),
      ).to.equal(`teams.relations.owner: expected a relation definition ({ type, table, … }), got 'users'`)
    })

    it('a relation name cannot hold a path separator', () => {
      expect(
        messageFor(
          mapWith((m) => {
            ;(m.teams as MapTable).relations = {
              'owner.posts': { type: 'belongsTo', table: 'users', foreignKey: 'owner_id' },
            }
          }),
        ),
      ).to.equal(`teams.relations.owner.posts: a relation name may not contain '.' or be '*', which relation paths use`)
    })

    it('the type must be a relation type, with a suggestion for a typo', () => {
      expect(
        messageFor(
          mapWith((m) => {
            relationOf(m, 'users', 'posts').type = 'hasmany'
          }),
        ),
      ).to.equal(
        `users.relations.posts.type: 'hasmany' is not a relation type; expected one of ${RELATION_TYPES} (did you mean 'hasMany'?)`,
      )
      expect(
        messageFor(
          mapWith((m) => {
            relationOf(m, 'users', 'posts').type = 'hasMnay'
          }),
        ),
      ).to.equal(
        `users.relations.posts.type: 'hasMnay' is not a relation type; expected one of ${RELATION_TYPES} (did you mean 'hasMany'?)`,
      )
      expect(
        messageFor(
          mapWith((m) => {
            relationOf(m, 'users', 'posts').type = 'oneToMany'
          }),
        ),
      ).to.equal(`users.relations.posts.type: 'oneToMany' is not a relation type; expected one of ${RELATION_TYPES}`)
      expect(
        messageFor(
          mapWith((m) => {
            delete relationOf(m, 'users', 'posts').type
          }),
        ),
      ).to.equal(`users.relations.posts.type: missing; expected one of ${RELATION_TYPES}`)
    })

    it('unknown keys are rejected, with a suggestion for a typo', () => {
      expect(
        messageFor(
          mapWith((m) => {
            const posts = relationOf(m, 'users', 'posts')
            delete posts.foreignKey
            posts.foriegnKey = 'user_id'
          }),
        ),
      ).to.equal(
        `users.relations.posts.foriegnKey: unknown key (did you mean 'foreignKey'?); a hasMany relation takes type, table, foreignKey, localKey, limit, orders`,
      )
      expect(
        messageFor(
          mapWith((m) => {
            relationOf(m, 'users', 'posts').required = true
          }),
        ),
      ).to.equal(
        `users.relations.posts.required: unknown key; a hasMany relation takes type, table, foreignKey, localKey, limit, orders`,
      )
      expect(
        messageFor(
          mapWith((m) => {
            relationOf(m, 'users', 'team').ownerkey = 'id'
          }),
        ),
      ).to.equal(
        `users.relations.team.ownerkey: unknown key (did you mean 'ownerKey'?); a belongsTo relation takes type, table, foreignKey, ownerKey, required`,
      )
    })

    it('every key the type requires must be there', () => {
      expect(
        messageFor(
          mapWith((m) => {
            delete relationOf(m, 'users', 'posts').foreignKey
          }),
        ),
      ).to.equal(`users.relations.posts.foreignKey: missing; a hasMany relation needs table, foreignKey`)
      expect(
        messageFor(
          mapWith((m) => {
            delete relationOf(m, 'users', 'team').table
          }),
        ),
      ).to.equal(`users.relations.team.table: missing; a belongsTo relation needs table, foreignKey`)
      expect(
        messageFor(
          mapWith((m) => {
            delete relationOf(m, 'posts', 'tags').pivotTable
          }),
        ),
      ).to.equal(
        `posts.relations.tags.pivotTable: missing; a belongsToMany relation needs table, pivotTable, foreignPivotKey, relatedPivotKey`,
      )
      expect(
        messageFor(
          mapWith((m) => {
            delete relationOf(m, 'posts', 'tags').relatedPivotKey
          }),
        ),
      ).to.equal(
        `posts.relations.tags.relatedPivotKey: missing; a belongsToMany relation needs table, pivotTable, foreignPivotKey, relatedPivotKey`,
      )
      expect(
        messageFor(
          mapWith((m) => {
            delete relationOf(m, 'users', 'images').morphType
          }),
        ),
      ).to.equal(`users.relations.images.morphType: missing; a morphMany relation needs table, name, morphType`)
      expect(
        messageFor(
          mapWith((m) => {
            delete relationOf(m, 'images', 'imageable').types
          }),
        ),
      ).to.equal(`images.relations.imageable.types: missing; a morphTo relation needs name, types`)
    })

    it('every key holds a value of the right kind', () => {
      expect(
        messageFor(
          mapWith((m) => {
            relationOf(m, 'users', 'posts').foreignKey = 42
          }),
        ),
      ).to.equal(`users.relations.posts.foreignKey: expected a column name, got 42`)
      expect(
        messageFor(
          mapWith((m) => {
            relationOf(m, 'users', 'posts').localKey = ''
          }),
        ),
      ).to.equal(`users.relations.posts.localKey: expected a column name, got ''`)
      expect(
        messageFor(
          mapWith((m) => {
            relationOf(m, 'users', 'team').required = 'yes'
          }),
        ),
      ).to.equal(`users.relations.team.required: expected true or false, got 'yes'`)
      expect(
        messageFor(
          mapWith((m) => {
            relationOf(m, 'users', 'images').name = null
          }),
        ),
      ).to.equal(`users.relations.images.name: expected a non-empty string, got null`)
      expect(
        messageFor(
          mapWith((m) => {
            relationOf(m, 'posts', 'tags').table = { name: 'tags' }
          }),
        ),
      ).to.equal(`posts.relations.tags.table: expected a table name, got an object`)
    })

    it('the related table must be in the map', () => {
      expect(
        messageFor(
          mapWith((m) => {
            relationOf(m, 'users', 'posts').table = 'post'
          }),
        ),
      ).to.equal(
        `users.relations.posts.table: table 'post' is not in the relation map (did you mean 'posts'?); add it with its columns, or fix the name`,
      )
      expect(
        messageFor(
          mapWith((m) => {
            relationOf(m, 'users', 'team').table = 'organisations'
          }),
        ),
      ).to.equal(
        `users.relations.team.table: table 'organisations' is not in the relation map; add it with its columns, or fix the name`,
      )
    })

    it('a to-many relation may declare limit and orders; a to-one relation takes neither', () => {
      const top = { limit: 3, orders: [{ column: 'title', direction: 'desc' }] }
      expect(() =>
        defineRelationMap(
          mapWith((m) => {
            Object.assign(relationOf(m, 'users', 'posts'), top)
            Object.assign(relationOf(m, 'posts', 'tags'), { limit: 1, orders: [{ column: 'name', direction: 'asc' }] })
            Object.assign(relationOf(m, 'users', 'images'), { limit: 2 })
          }) as RelationMap,
        ),
      ).not.to.throw()
      expect(
        messageFor(
          mapWith((m) => {
            relationOf(m, 'users', 'posts').type = 'hasOne'
            Object.assign(relationOf(m, 'users', 'posts'), top)
          }),
        ),
      ).to.equal(`users.relations.posts.limit: unknown key; a hasOne relation takes type, table, foreignKey, localKey`)
      expect(
        messageFor(
          mapWith((m) => {
            Object.assign(relationOf(m, 'users', 'team'), { limit: 1 })
          }),
        ),
      ).to.match(/^users\.relations\.team\.limit: unknown key/)
    })

    it('limit is a positive integer, and orders a list of { column, direction } on columns of the related table', () => {
      const posts = (change: Record<string, unknown>): string =>
        messageFor(
          mapWith((m) => {
            Object.assign(relationOf(m, 'users', 'posts'), change)
          }),
        )
      expect(posts({ limit: 0 })).to.equal(
        `users.relations.posts.limit: expected the most related rows each parent gets, a positive integer, got 0`,
      )
      expect(posts({ limit: 2.5 })).to.equal(
        `users.relations.posts.limit: expected the most related rows each parent gets, a positive integer, got 2.5`,
      )
      expect(posts({ limit: '5' })).to.equal(
        `users.relations.posts.limit: expected the most related rows each parent gets, a positive integer, got '5'`,
      )
      expect(posts({ orders: [{ column: 'title', direction: 'asc' }] })).to.equal(
        `users.relations.posts.orders: orders the rows of each parent's top N, so it needs limit (the most rows each parent gets)`,
      )
      expect(posts({ limit: 1, orders: [] })).to.match(
        /^users\.relations\.posts\.orders: expected a non-empty list of \{ column, direction \}/,
      )
      expect(posts({ limit: 1, orders: ['title'] })).to.equal(
        `users.relations.posts.orders[0]: expected { column, direction }, got 'title'`,
      )
      expect(posts({ limit: 1, orders: [{ column: 'title', direction: 'up' }] })).to.equal(
        `users.relations.posts.orders[0].direction: expected 'asc' or 'desc', got 'up'`,
      )
      expect(posts({ limit: 1, orders: [{ column: 'title', direction: 'asc', nulls: 'last' }] })).to.equal(
        `users.relations.posts.orders[0].nulls: unknown key; an order takes column, direction`,
      )
      expect(posts({ limit: 1, orders: [{ column: 'titel', direction: 'asc' }] })).to.equal(
        `users.relations.posts.orders[0].column: 'titel' is not a column of posts (did you mean 'title'?); orders name columns of the related table's allow-list`,
      )
    })

    it('the pivot table of belongsToMany need not be in the map', () => {
      expect(validMap().post_tag).to.equal(undefined)
      expect(() => defineRelationMap(validMap() as unknown as RelationMap)).not.to.throw()
    })

    it('morphTo types map type values to tables of the map', () => {
      expect(
        messageFor(
          mapWith((m) => {
            relationOf(m, 'images', 'imageable').types = {}
          }),
        ),
      ).to.equal(
        `images.relations.imageable.types: expected an object mapping each value of the type column to a table of the map (e.g. { User: 'users' }), got an object`,
      )
      expect(
        messageFor(
          mapWith((m) => {
            relationOf(m, 'images', 'imageable').types = ['users']
          }),
        ),
      ).to.equal(
        `images.relations.imageable.types: expected an object mapping each value of the type column to a table of the map (e.g. { User: 'users' }), got an array`,
      )
      expect(
        messageFor(
          mapWith((m) => {
            relationOf(m, 'images', 'imageable').types = { User: 'users', Post: 'post' }
          }),
        ),
      ).to.equal(
        `images.relations.imageable.types.Post: table 'post' is not in the relation map (did you mean 'posts'?); add it with its columns, or fix the name`,
      )
    })
  })

  describe('scopes and guard', () => {
    it('scopes must be an object of functions', () => {
      expect(
        messageFor(
          mapWith((m) => {
            ;(m.users as MapTable).scopes = ['admins']
          }),
        ),
      ).to.equal(`users.scopes: expected an object of scope functions, got an array`)
      expect(
        messageFor(
          mapWith((m) => {
            ;(m.users as MapTable).scopes = { admins: 'is_admin = 1' }
          }),
        ),
      ).to.equal(`users.scopes.admins: expected a function (query) => void, got 'is_admin = 1'`)
    })

    it('guard must be a function', () => {
      expect(
        messageFor(
          mapWith((m) => {
            ;(m.users as MapTable).guard = { tenant_id: 1 }
          }),
        ),
      ).to.equal(`users.guard: expected a function (query, { table, context }) => void, got an object`)
    })
  })
})
