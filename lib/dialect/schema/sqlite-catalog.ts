import type { Knex } from 'knex'
import type { SchemaColumn, SchemaForeignKey, SchemaSearchIndex, SchemaTable } from './schema-snapshot.ts'
import type { CatalogReader, CatalogScope } from './catalog-reader.ts'
import { bareTypeName, columnTypeOf } from './column-type-of.ts'
import { readFts5, type Fts5Declaration } from './fts5-declaration.ts'
import { groupRows } from './group-rows.ts'
import { sqliteCheckedValues, textFacts } from './text-facts.ts'

interface TableRow {
  name: string
  wr: number
  type: string
}
interface ColumnRow {
  name: string
  type: string
  notnull: number
  pk: number
  hidden: number
}
interface IndexRow {
  name: string
  unique: number
  origin: string
  partial: number
}
interface IndexColumnRow {
  name: string | null
}
interface ForeignKeyRow {
  id: number
  table: string
  from: string
  to: string | null
}

const query = async <Row>(db: Knex, sql: string, bindings: readonly string[]): Promise<Row[]> =>
  (await db.raw(sql, bindings)) as Row[]

async function columnRows(db: Knex, table: string, schema: string): Promise<ColumnRow[]> {
  const rows = await query<ColumnRow>(
    db,
    'select name, type, "notnull", pk, hidden from pragma_table_xinfo(?, ?) order by cid',
    [table, schema],
  )
  return rows.filter((row) => row.hidden !== 1)
}

const primaryKeyOf = (rows: readonly ColumnRow[]): string[] =>
  rows
    .filter((row) => row.pk > 0)
    .sort((a, b) => a.pk - b.pk)
    .map((row) => row.name)

function columnOf(
  row: ColumnRow,
  rowidAlias: boolean,
  withoutRowid: boolean,
  checked: ReadonlyMap<string, string[]>,
): SchemaColumn {
  const dataType = bareTypeName(row.type)
  // An INTEGER PRIMARY KEY is the rowid, and a WITHOUT ROWID table's key is NOT NULL; other keys of a rowid table may
  // hold NULL.
  const keyNotNull = row.pk > 0 && (rowidAlias || withoutRowid)
  const type = columnTypeOf(dataType)
  const values = type === 'string' ? (checked.get(row.name) ?? null) : null
  return textFacts(dataType, values, { name: row.name, dataType, type, nullable: row.notnull === 0 && !keyNotNull })
}

async function checkedValues(db: Knex, table: string, schema: string): Promise<Map<string, string[]>> {
  const master = `"${schema.replace(/"/g, '""')}".sqlite_master`
  const sql = `select sql from ${master} where type = 'table' and name = ?`
  const [row] = await query<{ sql: string | null }>(db, sql, [table])
  return sqliteCheckedValues(row?.sql ?? '')
}

/**
 * Every index (all SQLite indexes are B-trees) and the unique ones but the primary key's, not partial, not on
 * expressions.
 */
async function indexesOf(
  db: Knex,
  table: string,
  schema: string,
): Promise<{ indexes: string[][]; uniques: string[][] }> {
  const rows = await query<IndexRow>(db, 'select name, "unique", origin, partial from pragma_index_list(?, ?)', [
    table,
    schema,
  ])
  const indexes: string[][] = []
  const uniques: string[][] = []
  for (const index of rows) {
    if (index.partial !== 0) continue
    const columns = await query<IndexColumnRow>(db, 'select name from pragma_index_info(?, ?) order by seqno', [
      index.name,
      schema,
    ])
    if (columns.some((column) => column.name === null)) continue
    const names = columns.map((column) => column.name ?? '')
    indexes.push(names)
    if (index.unique === 1 && index.origin !== 'pk') uniques.push(names)
  }
  return { indexes, uniques }
}

async function foreignKeysOf(db: Knex, table: string, schema: string, enforced: boolean): Promise<SchemaForeignKey[]> {
  const rows = await query<ForeignKeyRow>(
    db,
    'select id, "table", "from", "to" from pragma_foreign_key_list(?, ?) order by id, seq',
    [table, schema],
  )
  const foreignKeys: SchemaForeignKey[] = []
  for (const group of groupRows(rows, (row) => String(row.id)).values()) {
    const referencedTable = group[0]?.table ?? ''
    // `references t` without columns means t's primary key.
    const referencedColumns = group.some((row) => row.to === null)
      ? primaryKeyOf(await columnRows(db, referencedTable, schema))
      : group.map((row) => row.to ?? '')
    foreignKeys.push({
      name: undefined,
      columns: group.map((row) => row.from),
      referencedTable,
      referencedColumns,
      enforced,
    })
  }
  return foreignKeys
}

/** An external-content FTS5 table: the index of its content table's search. */
interface Fts5Table {
  name: string
  declaration: Fts5Declaration
  shadowTables: string[]
}

/** The external-content FTS5 tables of `schema`, by their content table. */
async function fts5Tables(db: Knex, schema: string): Promise<Map<string, Fts5Table[]>> {
  const master = `"${schema.replace(/"/g, '""')}".sqlite_master`
  const virtual = await query<{ name: string; sql: string | null }>(
    db,
    `select name, sql from ${master} where type = 'table' and sql like 'create virtual table%' order by name`,
    [],
  )
  const shadows = await query<{ name: string }>(
    db,
    `select name from pragma_table_list where schema = ? and type = 'shadow' order by name`,
    [schema],
  )
  const byContent = new Map<string, Fts5Table[]>()
  for (const row of virtual) {
    const declaration = readFts5(row.sql ?? '')
    if (declaration?.content === undefined || declaration.content === '') continue
    const shadowTables = shadows
      .map((shadow) => shadow.name)
      .filter((name) => name.startsWith(`${row.name}_`) && /^[a-z]+$/.test(name.slice(row.name.length + 1)))
    const tables = byContent.get(declaration.content) ?? []
    byContent.set(declaration.content, [...tables, { name: row.name, declaration, shadowTables }])
  }
  return byContent
}

function searchIndexOf(fts: Fts5Table, rowidKey: string | undefined): SchemaSearchIndex {
  return {
    name: fts.name,
    mode: 'fulltext',
    columns: fts.declaration.columns,
    fts: fts.name,
    rowid: fts.declaration.contentRowid ?? rowidKey ?? 'rowid',
    shadowTables: fts.shadowTables,
  }
}

async function readTable(
  db: Knex,
  table: TableRow,
  schema: string,
  enforced: boolean,
  fts: readonly Fts5Table[],
): Promise<SchemaTable> {
  const rows = await columnRows(db, table.name, schema)
  const primaryKey = primaryKeyOf(rows)
  const checked = await checkedValues(db, table.name, schema)
  const rowidAlias =
    table.wr === 0 &&
    primaryKey.length === 1 &&
    rows.some((row) => row.pk === 1 && row.type.toUpperCase() === 'INTEGER')
  return {
    name: table.name,
    ...(table.type === 'view' ? { kind: 'view' as const } : {}),
    columns: rows.map((row) => columnOf(row, rowidAlias, table.wr === 1, checked)),
    primaryKey,
    ...(await indexesOf(db, table.name, schema)),
    foreignKeys: await foreignKeysOf(db, table.name, schema, enforced),
    ...(fts.length > 0
      ? { searchIndexes: fts.map((each) => searchIndexOf(each, rowidAlias ? primaryKey[0] : undefined)) }
      : {}),
  }
}

/**
 * SQLite (better-sqlite3, sqlite3): the `pragma_*` table functions of one schema (`main` by default).
 * Foreign keys are enforced only while `PRAGMA foreign_keys` is on for the connection read; constraints
 * have no names SQLite reports. An external-content FTS5 table (`content='<table>'`) is its content table's search
 * index (`searchIndexes`), not a table of its own, nor are its shadow tables.
 */
export const sqliteCatalog: CatalogReader = {
  defaultSchema: () => Promise.resolve('main'),
  async read(db: Knex, scope: CatalogScope): Promise<SchemaTable[]> {
    const schema = scope.schema ?? 'main'
    const types = scope.kinds === undefined ? `type = 'table'` : `type in ('table', 'view')`
    const list = `select name, wr, type from pragma_table_list where schema = ? and ${types}`
    const tables = await query<TableRow>(db, `${list} and name not like 'sqlite\\_%' escape '\\'`, [schema])
    const [setting] = await query<{ foreign_keys: number }>(db, 'select foreign_keys from pragma_foreign_keys', [])
    const enforced = setting?.foreign_keys === 1
    const fts = await fts5Tables(db, schema)
    const read: SchemaTable[] = []
    for (const table of tables)
      if (scope.includes(table.name)) read.push(await readTable(db, table, schema, enforced, fts.get(table.name) ?? []))
    return read
  },
}
