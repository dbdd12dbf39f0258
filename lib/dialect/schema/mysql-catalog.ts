import type { Knex } from 'knex'
import type { SchemaTable } from './schema-snapshot.ts'
import type { CatalogReader, CatalogScope } from './catalog-reader.ts'
import { columnTypeOf } from './column-type-of.ts'
import { foreignKeyOf, type ForeignKeyColumnRow } from './foreign-key-of.ts'
import { groupRows } from './group-rows.ts'
import { mysqlEnumValues, textFacts } from './text-facts.ts'

interface TableRow {
  name: string
  engine: string | null
  table_type: string
  options: string | null
}
interface ColumnRow {
  table_name: string
  name: string
  data_type: string
  column_type: string
  is_nullable: string
}
interface IndexRow {
  table_name: string
  index_name: string
  non_unique: number | string
  index_type: string
  sub_part: number | string | null
  column_name: string | null
}
interface CheckRow {
  table_name: string
  check_clause: string
}
interface ForeignKeyRow extends ForeignKeyColumnRow {
  table_name: string
}

const query = async <Row>(db: Knex, sql: string, bindings: readonly (string | null)[]): Promise<Row[]> =>
  ((await db.raw(sql, bindings)) as [Row[]])[0]

const IN_SCHEMA = 'table_schema = coalesce(?, database())'

const TABLES = `select table_name as name, engine as engine, table_type as table_type, create_options as options
  from information_schema.tables where ${IN_SCHEMA} and table_type in ('BASE TABLE', 'VIEW') order by table_name`

const COLUMNS = `select table_name as table_name, column_name as name, data_type as data_type, column_type as column_type,
    is_nullable as is_nullable
  from information_schema.columns where ${IN_SCHEMA} order by table_name, ordinal_position`

// MySQL has no partial indexes; a functional key part has no column name; `sub_part` is a prefix length.
const INDEXES = `select table_name as table_name, index_name as index_name, non_unique as non_unique, index_type as index_type,
    sub_part as sub_part, column_name as column_name
  from information_schema.statistics where ${IN_SCHEMA}
  order by table_name, index_name, seq_in_index`

/**
 * A B-tree index's columns up to its first prefix part (a prefix orders rows by the prefix alone); empty for other
 * indexes.
 */
function orderColumns(rows: readonly IndexRow[]): string[] {
  if (rows[0]?.index_type.toUpperCase() !== 'BTREE') return []
  const end = rows.findIndex((row) => row.sub_part !== null)
  return (end === -1 ? rows : rows.slice(0, end)).map((row) => row.column_name ?? '')
}

// MariaDB stores JSON as LONGTEXT with a CHECK (json_valid(`column`)) named after the column.
const CHECKS = `select tc.table_name as table_name, cc.check_clause as check_clause
  from information_schema.table_constraints tc
  join information_schema.check_constraints cc on cc.constraint_schema = tc.constraint_schema and cc.constraint_name = tc.constraint_name
  where tc.${IN_SCHEMA} and tc.constraint_type = 'CHECK'`

const FOREIGN_KEYS = `select table_name as table_name, constraint_name as name, column_name as column_name,
    referenced_table_schema as referenced_schema, referenced_table_name as referenced_table, referenced_column_name as referenced_column
  from information_schema.key_column_usage where ${IN_SCHEMA} and referenced_table_name is not null
  order by table_name, constraint_name, ordinal_position`

const JSON_CHECK = /^json_valid\(`((?:[^`]|``)+)`\)$/i

function jsonColumns(checks: readonly CheckRow[]): Set<string> {
  const columns = new Set<string>()
  for (const check of checks) {
    const column = JSON_CHECK.exec(check.check_clause.trim())?.[1]
    if (column !== undefined) columns.add(`${check.table_name}.${column.replace(/``/g, '`')}`)
  }
  return columns
}

/**
 * MySQL and MariaDB (mysql2, mysql): `information_schema` of one database, the connection's `database()` by
 * default. `tinyint(1)` holds booleans; MariaDB's JSON (LONGTEXT checked by `json_valid`) reads as `json`.
 * Foreign keys are enforced on InnoDB tables while the session's `foreign_key_checks` is on. `FULLTEXT` indexes
 * are the tables' `searchIndexes`.
 */
export const mysqlCatalog: CatalogReader = {
  defaultSchema: async (db) =>
    (await query<{ schema: string | null }>(db, 'select database() as `schema`', []))[0]?.schema ?? '',
  async read(db: Knex, scope: CatalogScope): Promise<SchemaTable[]> {
    const bound = [scope.schema ?? null]
    const [current] = await query<{ schema: string; checks: number | string }>(
      db,
      'select coalesce(?, database()) as `schema`, @@foreign_key_checks as checks',
      bound,
    )
    const schema = current?.schema ?? ''
    const kindRead = (table: TableRow): boolean => table.table_type !== 'VIEW' || scope.kinds !== undefined
    const tableRows = await query<TableRow>(db, TABLES, bound)
    const tables = tableRows.filter((table) => scope.includes(table.name) && kindRead(table))
    const columns = groupRows(await query<ColumnRow>(db, COLUMNS, bound), (row) => row.table_name)
    const indexes = groupRows(await query<IndexRow>(db, INDEXES, bound), (row) => row.table_name)
    const json = jsonColumns(await query<CheckRow>(db, CHECKS, bound))
    const foreignKeys = groupRows(await query<ForeignKeyRow>(db, FOREIGN_KEYS, bound), (row) => row.table_name)
    return tables.map(({ name, engine, table_type: tableType, options }) => {
      const enforced = Number(current?.checks) === 1 && engine?.toLowerCase() === 'innodb'
      const byIndex = [...groupRows(indexes.get(name) ?? [], (row) => row.index_name).entries()]
        .filter(([, rows]) => rows.every((row) => row.column_name !== null))
        .map(([index, rows]) => [index, rows.map((row) => row.column_name ?? ''), rows] as const)
      const partitioned = /\bpartitioned\b/i.test(options ?? '')
      const searchIndexes = byIndex
        .filter(([, , rows]) => rows[0]?.index_type.toUpperCase() === 'FULLTEXT')
        .map(([index, columns]) => ({ name: index, mode: 'fulltext' as const, columns: [...columns] }))
        .sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0))
      return {
        name,
        ...(tableType === 'VIEW' ? { kind: 'view' as const } : {}),
        ...(partitioned ? { partitionLocalIndexes: true } : {}),
        columns: (columns.get(name) ?? []).map((row) => {
          const dataType = json.has(`${name}.${row.name}`) ? 'json' : row.data_type.toLowerCase()
          const columnType = row.column_type.toLowerCase()
          const boolean = columnType.startsWith('tinyint(1)') || columnType === 'bit(1)'
          const type = boolean ? 'boolean' : dataType === 'set' ? 'string' : columnTypeOf(dataType)
          const values = dataType === 'enum' ? mysqlEnumValues(row.column_type) : null
          const single = dataType === 'float' ? { precision: 'single' as const } : {}
          return textFacts(dataType, values, {
            name: row.name,
            dataType,
            type,
            nullable: row.is_nullable === 'YES',
            ...single,
          })
        }),
        primaryKey: [...(byIndex.find(([index]) => index === 'PRIMARY')?.[1] ?? [])],
        uniques: byIndex
          .filter(([index, , rows]) => index !== 'PRIMARY' && Number(rows[0]?.non_unique) === 0)
          .map(([, columns]) => [...columns]),
        indexes: byIndex.map(([, , rows]) => orderColumns(rows)).filter((columns) => columns.length > 0),
        foreignKeys: [...groupRows(foreignKeys.get(name) ?? [], (row) => row.name).values()].map((rows) =>
          foreignKeyOf(rows, schema, enforced),
        ),
        ...(searchIndexes.length > 0 ? { searchIndexes } : {}),
      }
    })
  },
}
