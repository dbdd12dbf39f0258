import type { ColumnType, RelationMap } from '../relation-map.ts'
import type { AggregateRecord } from './aggregate-record.ts'
import type { ToManyType } from './relation-kinds.ts'

/**
 * The JSON value rows carry for each column type, the same on SQLite, PostgreSQL and MySQL/MariaDB and in
 * every time zone: numbers for `integer` and `number`, `true`/`false` for `boolean`, `'YYYY-MM-DD'` for
 * `date`, UTC ISO 8601 with milliseconds for `datetime` (`'2024-03-01T12:00:00.000Z'`), and exact decimal
 * text for `bigint` and `decimal` (`'9007199254740993'`, `'4.99'`). With `{ values: 'driver' }` rows carry
 * the driver's own values instead, which these types do not describe.
 *
 * @example
 * type When = ColumnValues['datetime']  // string
 */
export interface ColumnValues {
  string: string
  integer: number
  number: number
  boolean: boolean
  date: string
  datetime: string
  bigint: string
  decimal: string
  json: JsonColumnValue
}

/** The parsed value of a `json` column: what `JSON.parse` gives for the text the column holds. */
export type JsonColumnValue = string | number | boolean | null | JsonColumnValue[] | { [key: string]: JsonColumnValue }

type TypeOf<Spec> = Spec extends ColumnType ? Spec : Spec extends { type: infer Type extends ColumnType } ? Type : never

type PrimaryKeyOf<Table> = Table extends { primaryKey: infer Key extends string }
  ? Key
  : Table extends { primaryKey: readonly (infer Key extends string)[] }
    ? Key
    : 'id'

type DatabaseColumnOf<Name, Spec> = Spec extends { column: infer Column extends string } ? Column : Name

type NullOf<Spec> = Spec extends { nullable: false } ? never : null

type Columns<Table> = Table extends { columns: infer C } ? C : never

type Relations<Table> = Table extends { relations: infer R } ? R : {}

/**
 * The columns of `Table` in a literal relation map, each with the type {@link ColumnValues} gives it, and
 * `| null` unless the column is (part of) the primary key or declared `nullable: false`. Columns are keyed
 * by the client's name, also when they are aliased to another database column.
 *
 * @example
 * type UserColumns = ColumnRecord<typeof relationMap, 'users'>  // { id: number; name: string | null; … }
 */
export type ColumnRecord<Map extends RelationMap, Table extends keyof Map> = string extends keyof Map
  ? Record<string, unknown>
  : {
      -readonly [Column in keyof Columns<Map[Table]> & string]:
        | ColumnValues[TypeOf<Columns<Map[Table]>[Column]>]
        | (DatabaseColumnOf<Column, Columns<Map[Table]>[Column]> extends PrimaryKeyOf<Map[Table]>
            ? never
            : NullOf<Columns<Map[Table]>[Column]>)
    }

// To-many types are those `RELATION_KINDS` loads as arrays; a morphTo's record is one of its `types`' tables.
type RelatedRecord<Map extends RelationMap, Relation> = Relation extends { type: 'morphTo'; types: infer Types }
  ? TableRecord<Map, Types[keyof Types] & keyof Map> | null
  : Relation extends { type: ToManyType; table: infer Table extends keyof Map }
    ? TableRecord<Map, Table>[]
    : Relation extends { table: infer Table extends keyof Map }
      ? TableRecord<Map, Table> | null
      : unknown

/**
 * The relations of `Table` as eager loading attaches them, every one optional (only those named in `with`
 * are there): to-one relations a record or `null`, to-many ones an array, each record a {@link TableRecord}
 * of its table. For a map typed only as `RelationMap` (not a literal), any property is `unknown`.
 *
 * @example
 * type UserRelations = LoadedRelations<typeof relationMap, 'users'>  // { posts?: TableRecord<…, 'posts'>[]; team?: … | null }
 */
export type LoadedRelations<Map extends RelationMap, Table extends keyof Map> = string extends keyof Map
  ? { [relation: string]: unknown }
  : { -readonly [Name in keyof Relations<Map[Table]>]?: RelatedRecord<Map, Relations<Map[Table]>[Name]> }

/**
 * A row of `Table` as the library returns it for a literal map from `defineRelationMap`: its allow-listed
 * columns ({@link ColumnRecord}), its relations as optional properties ({@link LoadedRelations}) and the
 * aggregates a client may ask for, optional too ({@link AggregateRecord}). Pass
 * it to knex to type the results: `applyQueryParams(db<TableRecord<typeof map, 'users'>>('users'), …)`.
 * For a map typed only as `RelationMap`, it is `Record<string, unknown>`. A union of tables gives a union of
 * records (what a `morphTo` loads).
 *
 * @example
 * type User = TableRecord<typeof relationMap, 'users'>
 * const users: User[] = await applyQueryParams(db<User>('users'), params, relationMap)
 * users[0]?.posts?.[0]?.title  // string | null | undefined
 */
export type TableRecord<Map extends RelationMap, Table extends keyof Map> = Table extends keyof Map
  ? ColumnRecord<Map, Table> & LoadedRelations<Map, Table> & AggregateRecord<Map, Table>
  : never
