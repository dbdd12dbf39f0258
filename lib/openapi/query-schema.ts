import { columnSpellings } from '../map/columns.ts'
import type { Operator } from '../query-params.ts'
import type { ColumnSpec, ColumnType, RelationMap, TableDefinition } from '../relation-map.ts'
import { aggregatesOf } from '../validate/aggregates-of.ts'
import { relationsOf } from '../validate/relations-of.ts'
import { columnOperators, isSortable, typeOperators } from './column-operators.ts'
import type { JsonSchema } from './json-schema.ts'
import { relationPaths, tablesByPath, type RelationPath } from './relation-paths.ts'
import type { RouteSettings } from './route-settings.ts'
import { searchOf } from './search-declaration.ts'
import { requestValueSchema } from './value-schemas.ts'
import { whereSchema, type FilterGroup } from './where-schema.ts'

const MAX_WHOLE = 999_999_999_999_999

/** The JSON Schemas of one operation's query parameters, by the key a client sends. */
export type QueryProperties = Record<string, JsonSchema>

/** Every name a client may send for the column `name` of the base table or of a path: both spellings, prefixed. */
function namesOf(name: string, prefixes: readonly string[]): string[] {
  const spellings = [...new Set([name, ...columnSpellings(name)])]
  return [...new Set(prefixes.flatMap((prefix) => spellings.map((spelling) => `${prefix}${spelling}`)))]
}

/** The prefixes of a column of the table at `path`: `posts.` for a path, `''` and `users.` for the base table. */
function prefixesOf(map: RelationMap, table: string, path: string): string[] {
  if (path !== '') return [`${path}.`]
  return relationsOf(map, table).has(table) ? [''] : ['', `${table}.`]
}

/** The columns of every table a path reaches, with the specs it has in each (a morphTo path may reach several). */
function columnsAt(map: RelationMap, reached: readonly RelationPath[]): Map<string, ColumnSpec[]> {
  const columns = new Map<string, ColumnSpec[]>()
  for (const { table } of reached) {
    for (const [name, spec] of Object.entries(map[table]?.columns ?? {}))
      columns.set(name, [...(columns.get(name) ?? []), spec])
  }
  return columns
}

function filterGroups(
  map: RelationMap,
  table: string,
  paths: readonly RelationPath[],
  settings: RouteSettings,
): FilterGroup[] {
  const groups = new Map<string, FilterGroup>()
  const add = (names: string[], operators: readonly Operator[], value: JsonSchema): void => {
    if (operators.length === 0) return
    const key = JSON.stringify([operators, value])
    const group = groups.get(key)
    if (group === undefined) groups.set(key, { names, operators, value })
    else group.names.push(...names.filter((name) => !group.names.includes(name)))
  }
  for (const [path, reached] of tablesByPath(paths)) {
    for (const [name, specs] of columnsAt(map, reached)) {
      const operators = specs
        .map(columnOperators)
        .reduce((all, each) => all.filter((operator) => each.includes(operator)))
      const values = [
        ...new Map(
          specs.map((spec) => [JSON.stringify(requestValueSchema(spec, settings.maxValueLength)), spec]),
        ).values(),
      ]
      const value =
        values.length === 1 && values[0] !== undefined
          ? requestValueSchema(values[0], settings.maxValueLength)
          : { anyOf: values.map((spec) => requestValueSchema(spec, settings.maxValueLength)) }
      add(namesOf(name, prefixesOf(map, table, path)), operators, value)
    }
  }
  for (const aggregate of aggregateNames(map, table))
    add(aggregate.names, typeOperators(aggregate.type), requestValueSchema(aggregate.type, settings.maxValueLength))
  return [...groups.values()]
}

/**
 * The aggregates of the base table a `wheres` or `orders` column may name (by name or snake_case key), unless
 * a column has that name.
 */
function aggregateNames(map: RelationMap, table: string): Array<{ names: string[]; type: ColumnType }> {
  const columns = Object.keys(map[table]?.columns ?? {}).flatMap((name) => namesOf(name, ['']))
  return [...aggregatesOf(map, table).bySnakeName.values()]
    .map((aggregate) => ({
      names: [...new Set([aggregate.name, aggregate.key])].filter((name) => !columns.includes(name)),
      type: aggregate.type,
    }))
    .filter((aggregate) => aggregate.names.length > 0)
}

/** `relevance`, the order of a `fulltext` search (with a search text only), unless a column has that name. */
function relevanceOrder(definition: TableDefinition): string[] {
  const search = searchOf(definition)
  return search?.mode === 'fulltext' && !Object.hasOwn(definition.columns, 'relevance') ? ['relevance'] : []
}

function orderColumns(map: RelationMap, table: string, paths: readonly RelationPath[]): string[] {
  const names: string[] = []
  for (const [path, reached] of tablesByPath(paths.filter((each) => each.toOne))) {
    if (!reached.every((each) => each.toOne)) continue
    for (const [name, specs] of columnsAt(map, reached))
      if (specs.every(isSortable)) names.push(...namesOf(name, prefixesOf(map, table, path)))
  }
  return [...names, ...aggregateNames(map, table).flatMap((aggregate) => aggregate.names)]
}

function withPaths(map: RelationMap, table: string, depth: number): string[] {
  const paths = tablesByPath(relationPaths(map, table, depth))
  const names = new Set<string>()
  for (const [path, reached] of paths) {
    const prefix = path === '' ? '' : `${path}.`
    if (path !== '') names.add(path)
    if (reached[0] !== undefined && reached[0].depth < depth) {
      if (reached.some((each) => relationsOf(map, each.table).size > 0)) names.add(`${prefix}*`)
      for (const each of reached)
        for (const aggregate of aggregatesOf(map, each.table).bySnakeName.values()) {
          names.add(`${prefix}${aggregate.name}`)
          names.add(`${prefix}${aggregate.key}`)
        }
    }
  }
  return [...names]
}

function nameList(names: readonly string[], maxItems: number, description: string): JsonSchema {
  if (names.length === 0) return { type: 'array', maxItems: 0, description: `${description} This resource has none.` }
  return { type: 'array', items: { type: 'string', enum: [...names] }, maxItems, description }
}

/**
 * The JSON Schema of each query parameter of a list operation on `table`, from the same map data and
 * settings validation reads.
 */
export function queryProperties(map: RelationMap, table: string, settings: RouteSettings): QueryProperties {
  const definition = map[table]
  if (definition === undefined)
    throw new Error(`knex-query-params: openApiDocument: table '${table}' is not in the relation map`)
  const depth = Math.min(settings.relationPathDepth, settings.maxRelationDepth)
  const paths = relationPaths(map, table, depth)
  const own = Object.entries(definition.columns)
  const ownNames = (filter: (spec: ColumnSpec) => boolean): string[] =>
    own.filter(([, spec]) => filter(spec)).flatMap(([name]) => namesOf(name, prefixesOf(map, table, '')))
  const relationPathNames = [...tablesByPath(paths).keys()].filter((path) => path !== '')
  const properties: QueryProperties = {
    wheres: {
      type: 'array',
      items: whereSchema(filterGroups(map, table, paths, settings), settings),
      maxItems: settings.maxWheres,
    },
    columns: nameList(
      ownNames(() => true),
      settings.maxListItems,
      'The columns to select (default every allow-listed column).',
    ),
    with: nameList(
      withPaths(map, table, Math.min(settings.relationPathDepth, settings.maxWithDepth)),
      settings.maxWith,
      'Relations and aggregates to eager-load; `*` is every relation of its table.',
    ),
    scopes: nameList(Object.keys(definition.scopes ?? {}), settings.maxListItems, 'Named scopes to apply.'),
    relations_exists: nameList(
      relationPathNames,
      settings.maxRelationFilters,
      'Keep rows that have at least one related row on each path.',
    ),
    orders: {
      type: 'array',
      maxItems: settings.maxListItems,
      items: {
        type: 'object',
        properties: {
          column: { type: 'string', enum: [...orderColumns(map, table, paths), ...relevanceOrder(definition)] },
          direction: { type: 'string', enum: ['asc', 'desc'], default: 'asc' },
        },
        required: ['column'],
        additionalProperties: false,
      },
    },
    distinct: nameList(ownNames(isSortable), settings.maxListItems, 'Select distinct rows of these columns.'),
    limit: { type: 'integer', minimum: 1, maximum: settings.maxLimit },
  }
  if (settings.pagination !== 'cursor') properties['offset'] = { type: 'integer', minimum: 0, maximum: MAX_WHOLE }
  if (settings.pagination === 'page' || settings.pagination === 'page-or-cursor')
    properties['page'] = {
      type: 'integer',
      minimum: 1,
      maximum: MAX_WHOLE,
      description: `Answer one page (\`{ data, meta }\`) of \`limit\` rows (default ${settings.defaultLimit}).`,
    }
  if (settings.pagination === 'cursor' || settings.pagination === 'page-or-cursor')
    properties['cursor'] = {
      type: 'string',
      description:
        'The opaque `next_cursor` or `prev_cursor` of the page before; not with `page` or `offset` (invalid_cursor).',
    }
  const search = searchOf(definition)
  if (search !== undefined) {
    const word = '[^\\s"\\u0000]'
    properties['search'] = {
      type: 'string',
      maxLength: settings.maxSearchLength,
      pattern: `^\\s*(?:${word}+\\s+){0,${settings.maxSearchWords - 1}}${word}*\\s*$`,
      description: `Search text, looked for in ${search.columns.join(', ')} (${search.mode}).`,
    }
  }
  return properties
}
