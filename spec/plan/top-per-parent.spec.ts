import { expect } from 'chai'
import { mysql } from '../../lib/dialect/mysql.ts'
import { postgres } from '../../lib/dialect/postgres.ts'
import { sqlite } from '../../lib/dialect/sqlite.ts'
import { defineRelationMap } from '../../lib/map/define-relation-map.ts'
import { topPerParentOf } from '../../lib/plan/top-per-parent.ts'
import type { DirectRelation } from '../../lib/validate/resolved-relation.ts'
import { relationsOf } from '../../lib/validate/relations-of.ts'

/**
 * The planning layer decides how eager loading reads a relation's top N per parent: how many rows, in which
 * order, and the SQL form (the dialect's, but the window for a composite key). The SQL of each form is pinned by
 * the snapshots of spec/eager-load and spec/relations.
 */
const map = defineRelationMap({
  tp_users: {
    columns: { id: 'integer', name: 'string' },
    relations: {
      posts: { type: 'hasMany', table: 'tp_posts', foreignKey: 'user_id' },
      newestPosts: {
        type: 'hasMany',
        table: 'tp_posts',
        foreignKey: 'user_id',
        limit: 3,
        orders: [{ column: 'id', direction: 'desc' }],
      },
      profile: { type: 'hasOne', table: 'tp_profiles', foreignKey: 'user_id' },
    },
  },
  tp_posts: {
    columns: { id: 'integer', user_id: 'integer' },
    relations: { author: { type: 'belongsTo', table: 'tp_users', foreignKey: 'user_id' } },
  },
  tp_profiles: { columns: { id: 'integer', user_id: 'integer' } },
  tp_rentals: {
    primaryKey: ['rental_id', 'rental_date'],
    columns: { rental_id: 'integer', rental_date: 'date' },
    relations: {
      firstCharge: {
        type: 'hasOne',
        table: 'tp_charges',
        foreignKey: ['rental_id', 'rental_date'],
        localKey: ['rental_id', 'rental_date'],
      },
    },
  },
  tp_charges: { columns: { id: 'integer', rental_id: 'integer', rental_date: 'date' } },
})

function relation(table: string, name: string): DirectRelation {
  const resolved = relationsOf(map, table).get(name)
  if (resolved?.kind !== 'direct') throw new Error(`${table}.${name} is not a direct relation`)
  return resolved
}

describe('the top N per parent (planning layer)', () => {
  it('a to-many relation with a declared limit keeps it, in its declared order, in the dialect form', () => {
    const newest = relation('tp_users', 'newestPosts')
    expect(topPerParentOf(newest, postgres)).to.deep.equal({
      limit: 3,
      orders: [{ column: 'id', direction: 'desc', nullable: false }],
      form: 'lateral',
    })
    expect(topPerParentOf(newest, sqlite)?.form).to.equal('window')
    expect(topPerParentOf(newest, mysql)?.form).to.equal('window')
  })

  it('a hasOne keeps the row with the lowest key; a belongsTo and a plain hasMany keep every match', () => {
    expect(topPerParentOf(relation('tp_users', 'profile'), postgres)).to.deep.equal({
      limit: 1,
      orders: [],
      form: 'lateral',
    })
    expect(topPerParentOf(relation('tp_posts', 'author'), postgres)).to.equal(undefined)
    expect(topPerParentOf(relation('tp_users', 'posts'), postgres)).to.equal(undefined)
  })

  it('a composite key takes the window form on every dialect (the lateral form reads one key column back)', () => {
    const firstCharge = relation('tp_rentals', 'firstCharge')
    for (const dialect of [postgres, sqlite, mysql])
      expect(topPerParentOf(firstCharge, dialect)?.form).to.equal('window')
  })
})
