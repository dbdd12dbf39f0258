import type { RelationType } from '../relation-map.ts'

/** What a key of a relation definition holds. */
export type RelationKeyKind = 'table' | 'column' | 'text' | 'boolean' | 'types' | 'limit' | 'orders'

/** The keys one relation type takes besides `type`: the required ones and the optional ones, with what each holds. */
export interface RelationKeys {
  required: Readonly<Record<string, RelationKeyKind>>
  optional: Readonly<Record<string, RelationKeyKind>>
}

/**
 * The keys of each relation type, as `lib/relation-map.ts` declares them. A key added to a relation type
 * there must be added here too, or maps using it are rejected as having an unknown key.
 */
export const RELATION_KEYS: Readonly<Record<RelationType, RelationKeys>> = {
  belongsTo: { required: { table: 'table', foreignKey: 'column' }, optional: { ownerKey: 'column', required: 'boolean' } },
  hasOne: { required: { table: 'table', foreignKey: 'column' }, optional: { localKey: 'column' } },
  hasMany: { required: { table: 'table', foreignKey: 'column' }, optional: { localKey: 'column', limit: 'limit', orders: 'orders' } },
  belongsToMany: {
    required: { table: 'table', pivotTable: 'text', foreignPivotKey: 'column', relatedPivotKey: 'column' },
    optional: { parentKey: 'column', relatedKey: 'column', limit: 'limit', orders: 'orders' },
  },
  morphOne: { required: { table: 'table', name: 'text', morphType: 'text' }, optional: { localKey: 'column' } },
  morphMany: { required: { table: 'table', name: 'text', morphType: 'text' }, optional: { localKey: 'column', limit: 'limit', orders: 'orders' } },
  morphTo: { required: { name: 'text', types: 'types' }, optional: {} },
}

/** The relation types, in the order error messages list them. */
export const RELATION_TYPES = Object.keys(RELATION_KEYS) as RelationType[]
