import type { Knex } from 'knex'
import type { SchemaTable } from './schema-snapshot.ts'
import type { CatalogReader, CatalogScope } from './catalog-reader.ts'
import { columnTypeOf } from './column-type-of.ts'
import { foreignKeyOf, type ForeignKeyColumnRow } from './foreign-key-of.ts'
import { groupRows } from './group-rows.ts'
import { postgresSearchIndexes, SEARCH_KEYS, type SearchKeyRow } from './postgres-search-indexes.ts'
import { textFacts } from './text-facts.ts'

interface ColumnRow {
  table_name: string
  name: string
  data_type: string
  is_enum: boolean
  nullable: boolean
  enum_values: string[] | null
}
interface IndexRow {
  table_name: string
  index_name: string
  is_primary: boolean
  is_unique: boolean
  can_order: boolean
  column_name: string | null
}
interface ForeignKeyRow extends ForeignKeyColumnRow {
  table_name: string
  enforced: boolean
}

interface TableRow {
  name: string
  is_view: boolean
  is_child: boolean
  children: string[] | null
}

const kindRead = (row: TableRow, scope: CatalogScope): boolean =>
  scope.kinds === 'every' || (!row.is_child && (!row.is_view || scope.kinds === 'views'))

const query = async <Row>(db: Knex, sql: string, bindings: readonly string[]): Promise<Row[]> =>
  ((await db.raw(sql, bindings)) as { rows: Row[] }).rows

// Partitions and INHERITS children are folded into their parent, whose queries read their rows.
const TABLES = `select c.relname as name, c.relkind in ('v', 'm') as is_view,
    c.relispartition or exists (select 1 from pg_inherits i where i.inhrelid = c.oid) as is_child,
    (select array_agg(ch.relname::text order by ch.relname) from pg_inherits i join pg_class ch on ch.oid = i.inhrelid
      where i.inhparent = c.oid) as children
  from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where n.nspname = ? and c.relkind in ('r', 'p', 'v', 'm') order by c.relname`

// A domain reads as its base type; an enum (or a domain over one) holds strings.
const COLUMNS = `select c.relname as table_name, a.attname as name,
    format_type(case when t.typtype = 'd' then t.typbasetype else a.atttypid end, null) as data_type,
    (t.typtype = 'e' or coalesce(bt.typtype = 'e', false)) as is_enum,
    not (a.attnotnull or (t.typtype = 'd' and t.typnotnull)) as nullable,
    (select array_agg(e.enumlabel::text order by e.enumsortorder) from pg_enum e
      where e.enumtypid = case when t.typtype = 'd' then t.typbasetype else a.atttypid end) as enum_values
  from pg_attribute a
  join pg_class c on c.oid = a.attrelid
  join pg_namespace n on n.oid = c.relnamespace
  join pg_type t on t.oid = a.atttypid
  left join pg_type bt on bt.oid = t.typbasetype
  where n.nspname = ? and c.relkind in ('r', 'p', 'v', 'm') and a.attnum > 0 and not a.attisdropped
  order by c.relname, a.attnum`

// Unique indexes back both unique constraints and the primary key; partial and invalid ones guarantee nothing per
// column.
// `can_order`: a B-tree (not hash, GIN, GiST, BRIN), which can give rows in its columns' order.
const INDEXES = `select c.relname as table_name, ic.relname as index_name, i.indisprimary as is_primary, i.indisunique as is_unique,
    pg_indexam_has_property(ic.relam, 'can_order') as can_order, a.attname as column_name
  from pg_index i
  join pg_class c on c.oid = i.indrelid
  join pg_namespace n on n.oid = c.relnamespace
  join pg_class ic on ic.oid = i.indexrelid
  cross join lateral unnest(i.indkey::int2[]) with ordinality as k(attnum, position)
  left join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum and k.attnum > 0
  where n.nspname = ? and i.indisvalid and i.indpred is null and k.position <= i.indnkeyatts
  order by c.relname, ic.relname, k.position`

// NOT VALID constraints, and those whose checking triggers are disabled, do not hold for every row.
const FOREIGN_KEYS = `select c.relname as table_name, con.conname as name, fn.nspname as referenced_schema, fc.relname as referenced_table,
    a.attname as column_name, fa.attname as referenced_column,
    con.convalidated and not exists (select 1 from pg_trigger tg where tg.tgconstraint = con.oid and tg.tgenabled = 'D') as enforced
  from pg_constraint con
  join pg_class c on c.oid = con.conrelid
  join pg_namespace n on n.oid = c.relnamespace
  join pg_class fc on fc.oid = con.confrelid
  join pg_namespace fn on fn.oid = fc.relnamespace
  cross join lateral unnest(con.conkey, con.confkey) with ordinality as k(attnum, fattnum, position)
  join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.attnum
  join pg_attribute fa on fa.attrelid = con.confrelid and fa.attnum = k.fattnum
  where con.contype = 'f' and n.nspname = ? and con.conparentid = 0
  order by c.relname, con.conname, k.position`

/**
 * PostgreSQL (pg, PGlite): `pg_catalog` of one schema, the connection's `current_schema()` by default.
 * Reads ordinary and partitioned tables (not partitions, not views); a foreign key to another schema names
 * its table `schema.table`. Full-text (`to_tsvector`, `tsvector` columns) and pg_trgm GIN/GiST indexes are the
 * tables' `searchIndexes`.
 */
export const postgresCatalog: CatalogReader = {
  defaultSchema: async (db) =>
    (await query<{ schema: string }>(db, 'select current_schema() as schema', []))[0]?.schema ?? 'public',
  async read(db: Knex, scope: CatalogScope): Promise<SchemaTable[]> {
    const schema =
      scope.schema ??
      (await query<{ schema: string }>(db, 'select current_schema() as schema', []))[0]?.schema ??
      'public'
    const tableRows = await query<TableRow>(db, TABLES, [schema])
    const kinds = tableRows.filter((row) => scope.includes(row.name) && kindRead(row, scope))
    const names = kinds.map((row) => row.name)
    const byName = new Map(kinds.map((row) => [row.name, row]))
    const columns = groupRows(await query<ColumnRow>(db, COLUMNS, [schema]), (row) => row.table_name)
    const indexes = groupRows(await query<IndexRow>(db, INDEXES, [schema]), (row) => row.table_name)
    const foreignKeys = groupRows(await query<ForeignKeyRow>(db, FOREIGN_KEYS, [schema]), (row) => row.table_name)
    const searchKeys = groupRows(await query<SearchKeyRow>(db, SEARCH_KEYS, [schema]), (row) => row.table_name)
    return names.map((name) => {
      const searchIndexes = postgresSearchIndexes(searchKeys.get(name) ?? [])
      const byIndex = [...groupRows(indexes.get(name) ?? [], (row) => row.index_name).values()].filter((rows) =>
        rows.every((row) => row.column_name !== null),
      )
      const columnsOf = (rows: readonly IndexRow[]): string[] => rows.map((row) => row.column_name ?? '')
      const row = byName.get(name)
      return {
        name,
        ...(row?.is_view === true ? { kind: 'view' as const } : {}),
        ...(row?.is_child === true ? { kind: 'partition' as const } : {}),
        ...(row?.children !== null && row?.children !== undefined ? { partitions: row.children } : {}),
        columns: (columns.get(name) ?? []).map((row) =>
          textFacts(row.data_type, row.enum_values, {
            name: row.name,
            dataType: row.data_type,
            type: row.is_enum ? 'string' : columnTypeOf(row.data_type),
            nullable: row.nullable,
            ...(row.data_type === 'real' ? { precision: 'single' as const } : {}),
          }),
        ),
        primaryKey: columnsOf(byIndex.find((rows) => rows[0]?.is_primary === true) ?? []),
        uniques: byIndex.filter((rows) => rows[0]?.is_unique === true && rows[0].is_primary !== true).map(columnsOf),
        indexes: byIndex.filter((rows) => rows[0]?.can_order === true).map(columnsOf),
        foreignKeys: [...groupRows(foreignKeys.get(name) ?? [], (row) => row.name).values()].map((rows) =>
          foreignKeyOf(rows, schema, rows[0]?.enforced === true),
        ),
        ...(searchIndexes.length > 0 ? { searchIndexes } : {}),
      }
    })
  },
}
