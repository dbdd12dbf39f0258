import type { ColumnType, RelationMap } from '../relation-map.ts'
import type { ToManyType } from './relation-kinds.ts'
import type { ColumnValues } from './table-record.ts'

/** `postsViewsSum` → `posts_views_sum`, as the library names an aggregate's property. */
export type SnakeCase<Name extends string> = Name extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Tail>}`
  : Name

type Relations<Table> = Table extends { relations: infer R } ? R : {}
type Aggregates<Table> = Table extends { aggregates: infer A } ? A : {}
type Columns<Table> = Table extends { columns: infer C } ? C : {}

type ToManyNames<R> = { [Name in keyof R & string]: R[Name] extends { type: ToManyType } ? Name : never }[keyof R &
  string]
type DirectNames<R> = { [Name in keyof R & string]: R[Name] extends { type: 'morphTo' } ? never : Name }[keyof R &
  string]

type TypeOf<Spec> = Spec extends ColumnType ? Spec : Spec extends { type: infer Type extends ColumnType } ? Type : never

type DeclaredValue<Map extends RelationMap, Table, Aggregate> = Aggregate extends { fn: 'count' }
  ? number
  : Aggregate extends { fn: 'avg' }
    ? number | null
    : Aggregate extends { relation: infer Relation extends keyof Relations<Table>; column: infer Column extends string }
      ? Relations<Table>[Relation] extends { table: infer Related extends keyof Map }
        ? Column extends keyof Columns<Map[Related]>
          ? TypeOf<Columns<Map[Related]>[Column]> extends 'integer' | 'number'
            ? number | null
            : ColumnValues[TypeOf<Columns<Map[Related]>[Column]>] | null
          : unknown
        : unknown
      : unknown

/**
 * The aggregates of `Table` a client may ask for in `with`, every one optional (only those asked for are
 * there): `<relation>_count` (a number) for each to-many relation, `<relation>_exists` (a boolean) for each
 * relation but `morphTo`, and each declared aggregate under the snake_case of its name — a count a number,
 * an avg a number or `null`, a sum, min or max as its column's type (a number for a numeric column) or `null`.
 * For a map typed only as `RelationMap`, it adds nothing.
 *
 * @example
 // { posts_count?: number; team_exists?: boolean; posts_views_sum?: number | null; … }
 * type UserAggregates = AggregateRecord<typeof relationMap, 'users'>
 */
export type AggregateRecord<Map extends RelationMap, Table extends keyof Map> = string extends keyof Map
  ? {}
  : { -readonly [Name in ToManyNames<Relations<Map[Table]>> as `${SnakeCase<Name>}_count`]?: number } & {
      -readonly [Name in DirectNames<Relations<Map[Table]>> as `${SnakeCase<Name>}_exists`]?: boolean
    } & {
      -readonly [Name in keyof Aggregates<Map[Table]> & string as SnakeCase<Name>]?: DeclaredValue<
        Map,
        Map[Table],
        Aggregates<Map[Table]>[Name]
      >
    }
