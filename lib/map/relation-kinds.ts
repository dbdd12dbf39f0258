import type { HasRelation, MorphManyRelation, RelationDefinition, RelationKey, RelationType } from '../relation-map.ts'

/** What a key of a relation definition holds. */
export type RelationKeyKind = 'table' | 'column' | 'key' | 'text' | 'boolean' | 'types' | 'limit' | 'orders'

/** The keys one relation type takes besides `type`: the required ones and the optional ones, with what each holds. */
export interface RelationKeys {
  required: Readonly<Record<string, RelationKeyKind>>
  optional: Readonly<Record<string, RelationKeyKind>>
}

/** The relation definition that declares `type: Type` (`HasRelation` for both `hasOne` and `hasMany`). */
export type DefinitionOf<Type extends RelationType> = RelationDefinition extends infer Definition
  ? Definition extends { type: infer Types }
    ? Type extends Types
      ? Definition
      : never
    : never
  : never

/**
 * How a relation links a parent row to its related rows, as its definition says (a key left `undefined`
 * defaults to the primary key of its table):
 * - `direct`: rows of `table` where `related.<relatedKey> = parent.<parentKey>`, through a pivot table or restricted
 *   to a morph type
 *   where the definition says so. Filtered with a subquery on the related table (`exists`, `in`, key first),
 *   eager-loaded with one `where in` query per batch;
 * - `morphTo`: the parent's `typeColumn` names the related table among `types`, its `idColumn` the row. Filtered
 *   with one branch per target table, eager-loaded with one query per target table.
 */
export type RelationLink =
  | {
      kind: 'direct'
      table: string
      /** A column, or the columns of a composite key (paired in order with `relatedKey`'s). */
      parentKey: RelationKey | undefined
      relatedKey: RelationKey | undefined
      pivot?: { table: string; parentColumn: string; relatedColumn: string }
      morph?: { column: string; value: string }
    }
  | { kind: 'morphTo'; typeColumn: string; idColumn: string; types: Readonly<Record<string, string>> }

/** A key column a relation definition names (or leaves to a primary key): the option naming it, and its table. */
export interface RelationKeyColumn {
  option: string
  /** The column, or `undefined` when the option is left out and the key is the table's primary key. */
  column: string | undefined
  table: string
}

/**
 * Everything the library knows about one relation type: the one place a new type is described.
 * `loads` says what eager loading gives each parent, and so whether the relation is to-many (`'all'`: an
 * array, `limit`/`orders` may cap it, counted by `<relation>Count`), or to-one (`'first'`: the related row with
 * the lowest key, `'one'`: the row the parent's key references; a row or `null`, and a client may order
 * through a direct one). `link` says how it filters and loads (see {@link RelationLink}).
 */
export interface RelationKind<Definition extends RelationDefinition> {
  /** The keys the definition takes besides `type` (checked by `defineRelationMap`). */
  readonly keys: RelationKeys
  readonly loads: 'all' | 'first' | 'one'
  link(definition: Definition): RelationLink
  /** The key columns the definition names, each with the table it must be a column of. */
  keyColumns(table: string, definition: Definition): RelationKeyColumn[]
}

/** One {@link RelationKind} per relation type: a type of `RelationDefinition` missing here does not compile. */
export type RelationKinds = { readonly [Type in RelationType]: RelationKind<DefinitionOf<Type>> }

const hasKind = <Loads extends 'first' | 'all'>(
  loads: Loads,
  keys: RelationKeys,
): RelationKind<HasRelation> & { readonly loads: Loads } => ({
  keys,
  loads,
  link: (definition) => ({
    kind: 'direct',
    table: definition.table,
    parentKey: definition.localKey,
    relatedKey: definition.foreignKey,
  }),
  keyColumns: (table, definition) => [
    ...keyColumnsOf('foreignKey', definition.foreignKey, definition.table),
    ...keyColumnsOf('localKey', definition.localKey, table),
  ],
})

/**
 * The {@link RelationKeyColumn}s of one key option: one for a column (or a key left out), one per column of a
 * composite key, each option named with its index (`foreignKey[1]`).
 */
function keyColumnsOf(option: string, key: RelationKey | undefined, table: string): RelationKeyColumn[] {
  if (typeof key === 'string' || key === undefined) return [{ option, column: key, table }]
  return key.map((column, index) => ({ option: `${option}[${index}]`, column, table }))
}

const morphKind = <Loads extends 'first' | 'all'>(
  loads: Loads,
  keys: RelationKeys,
): RelationKind<MorphManyRelation> & { readonly loads: Loads } => ({
  keys,
  loads,
  link: (definition) => ({
    kind: 'direct',
    table: definition.table,
    parentKey: definition.localKey,
    relatedKey: `${definition.name}_id`,
    morph: { column: `${definition.name}_type`, value: definition.morphType },
  }),
  keyColumns: (table, definition) => [
    { option: 'name', column: `${definition.name}_type`, table: definition.table },
    { option: 'name', column: `${definition.name}_id`, table: definition.table },
    { option: 'localKey', column: definition.localKey, table },
  ],
})

/**
 * The relation types, as `lib/relation-map.ts` declares them. A key added to a relation type there must be
 * added to its `keys` here too, or maps using it are rejected as having an unknown key.
 */
export const RELATION_KINDS = {
  belongsTo: {
    keys: { required: { table: 'table', foreignKey: 'key' }, optional: { ownerKey: 'key', required: 'boolean' } },
    loads: 'one',
    link: (definition) => ({
      kind: 'direct',
      table: definition.table,
      parentKey: definition.foreignKey,
      relatedKey: definition.ownerKey,
    }),
    keyColumns: (table, definition) => [
      ...keyColumnsOf('foreignKey', definition.foreignKey, table),
      ...keyColumnsOf('ownerKey', definition.ownerKey, definition.table),
    ],
  },
  hasOne: hasKind('first', { required: { table: 'table', foreignKey: 'key' }, optional: { localKey: 'key' } }),
  hasMany: hasKind('all', {
    required: { table: 'table', foreignKey: 'key' },
    optional: { localKey: 'key', limit: 'limit', orders: 'orders' },
  }),
  belongsToMany: {
    keys: {
      required: { table: 'table', pivotTable: 'text', foreignPivotKey: 'column', relatedPivotKey: 'column' },
      optional: { parentKey: 'column', relatedKey: 'column', limit: 'limit', orders: 'orders' },
    },
    loads: 'all',
    link: (definition) => ({
      kind: 'direct',
      table: definition.table,
      parentKey: definition.parentKey,
      relatedKey: definition.relatedKey,
      pivot: {
        table: definition.pivotTable,
        parentColumn: definition.foreignPivotKey,
        relatedColumn: definition.relatedPivotKey,
      },
    }),
    keyColumns: (table, definition) => [
      { option: 'foreignPivotKey', column: definition.foreignPivotKey, table: definition.pivotTable },
      { option: 'relatedPivotKey', column: definition.relatedPivotKey, table: definition.pivotTable },
      { option: 'parentKey', column: definition.parentKey, table },
      { option: 'relatedKey', column: definition.relatedKey, table: definition.table },
    ],
  },
  morphOne: morphKind('first', {
    required: { table: 'table', name: 'text', morphType: 'text' },
    optional: { localKey: 'column' },
  }),
  morphMany: morphKind('all', {
    required: { table: 'table', name: 'text', morphType: 'text' },
    optional: { localKey: 'column', limit: 'limit', orders: 'orders' },
  }),
  morphTo: {
    keys: { required: { name: 'text', types: 'types' }, optional: {} },
    loads: 'one',
    link: (definition) => ({
      kind: 'morphTo',
      typeColumn: `${definition.name}_type`,
      idColumn: `${definition.name}_id`,
      types: definition.types,
    }),
    keyColumns: (table, definition) => [
      { option: 'name', column: `${definition.name}_type`, table },
      { option: 'name', column: `${definition.name}_id`, table },
    ],
  },
} as const satisfies RelationKinds

/** The relation types, in the order error messages list them. */
export const RELATION_TYPES = Object.keys(RELATION_KINDS) as RelationType[]

/** The relation types whose eager loading gives each parent an array (`loads: 'all'`). */
export type ToManyType = {
  [Type in RelationType]: (typeof RELATION_KINDS)[Type]['loads'] extends 'all' ? Type : never
}[RelationType]

/** The {@link RelationKind} of a relation type. */
export function relationKind(type: RelationType): RelationKind<RelationDefinition> {
  // Each entry takes the definition of its own type, which `definition.type` selects.
  return RELATION_KINDS[type] as RelationKind<RelationDefinition>
}

/** What eager loading gives each parent of a relation of `type` (see {@link RelationKind}). */
export function loadsOf(type: RelationType): RelationKind<RelationDefinition>['loads'] {
  return RELATION_KINDS[type].loads
}

/** Whether eager loading gives each parent an array of related rows. */
export const isToMany = (type: RelationType): boolean => loadsOf(type) === 'all'

/**
 * The tables a relation reaches, in the order a reader meets them: the related table (each `morphTo` target), then the
 * pivot.
 */
export function linkedTables(link: RelationLink): string[] {
  switch (link.kind) {
    case 'direct':
      return link.pivot === undefined ? [link.table] : [link.table, link.pivot.table]
    case 'morphTo':
      return Object.values(link.types)
    default:
      return unhandled(link)
  }
}

/** Where a `switch` over a closed set of values has handled them all: a new value fails to compile there. */
export function unhandled(value: never): never {
  throw new Error(`knex-query-params: unhandled ${JSON.stringify(value)}`)
}
