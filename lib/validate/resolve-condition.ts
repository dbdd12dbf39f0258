import { QueryParamsError } from '../errors/query-params-error.ts'
import { unhandled } from '../map/relation-kinds.ts'
import { APPLY_DEFAULTS } from '../options.ts'
import type { WhereDescription } from '../query-params.ts'
import type { RelationMap } from '../relation-map.ts'
import { buildTest, type WhereParams } from './build-column-predicate.ts'
import { checkRelationDepth, unknownRelation, relationsOf } from './relations-of.ts'
import { CAPABILITY_CODES, checkFilterable } from './column-capabilities.ts'
import type { Condition } from './query-plan.ts'
import type { MorphTarget, MorphToResolved } from './resolved-relation.ts'
import { findColumn, unknownColumn } from './resolve-column.ts'
import { singlePrecisionTest } from './single-precision-test.ts'
import { checkEnumValues, textColumnOf } from './text-column.ts'

/**
 * Resolves a where's `column` — `name`, `table.name` for the base table's own column, or a relation
 * path such as `posts.comments.body` — against the map, into a {@link Condition}. Each path segment
 * must be a relation of the table before it; the last is an allow-listed column of the final table, which
 * must be filterable with the where's operator (wherever it is reached, every `morphTo` target included).
 */
export function resolveWhere(
  map: RelationMap,
  table: string,
  where: WhereDescription,
  params: WhereParams,
  maxDepth = APPLY_DEFAULTS.maxRelationDepth,
): Condition {
  if (!where.column.includes('.')) return columnTest(map, table, where.column, where, params)
  const segments = where.column.split('.')
  if (segments.length === 2 && segments[0] === table && !relationsOf(map, table).has(table)) segments.shift()
  const name = segments.pop() ?? ''
  if (segments.length === 0) return columnTest(map, table, name, where, params)
  checkRelationDepth(segments.length, maxDepth, params.column)
  return resolvePath(map, table, segments, params.column, (target) => columnTest(map, target, name, where, params))
}

function columnTest(
  map: RelationMap,
  table: string,
  name: string,
  where: WhereDescription,
  params: WhereParams,
): Condition {
  const resolved = findColumn(map, table, name) ?? unknownColumn(map, table, name, params.column)
  checkFilterable(map, table, resolved.name, where.operator, params)
  const test = buildTest(where, resolved.type, params, resolved.storage)
  const text = textColumnOf(map, table, resolved.name)
  if (text?.values !== undefined) checkEnumValues(test, text.values, params)
  const condition: Condition = {
    kind: 'test',
    table,
    column: resolved.column,
    test: resolved.single === true ? singlePrecisionTest(test) : test,
  }
  return text === undefined ? condition : { ...condition, text: text.kind }
}

/** Resolves a `relationsExists` path (`posts`, `posts.comments`) into nested existence checks. */
export function resolveExists(
  map: RelationMap,
  table: string,
  path: string,
  param: string,
  maxDepth = APPLY_DEFAULTS.maxRelationDepth,
): Condition {
  const names = path.split('.')
  checkRelationDepth(names.length, maxDepth, param)
  return resolvePath(map, table, names, param, () => null) ?? unreachable()
}

function resolvePath<T extends Condition | null>(
  map: RelationMap,
  table: string,
  names: readonly string[],
  param: string,
  end: (table: string) => T,
  at = 0,
): Condition | T {
  const head = names[at]
  if (head === undefined) return end(table)
  const relations = relationsOf(map, table)
  const relation = relations.get(head)
  if (relation === undefined) {
    throw unknownRelation(param, head, table, relations.keys())
  }
  switch (relation.kind) {
    case 'direct':
      return { kind: 'exists', relation, inner: resolvePath(map, relation.table, names, param, end, at + 1) }
    case 'morphTo':
      return resolveMorphPath(map, relation, names, param, end, at)
    default:
      return unhandled(relation)
  }
}

/** A path through a `morphTo`: one branch per target table the rest of the path resolves on. */
function resolveMorphPath<T extends Condition | null>(
  map: RelationMap,
  relation: MorphToResolved,
  names: readonly string[],
  param: string,
  end: (table: string) => T,
  at: number,
): Condition {
  const branches: Array<{ target: MorphTarget; inner: Condition | null }> = []
  let firstError: unknown
  for (const target of relation.targets) {
    try {
      branches.push({ target, inner: resolvePath(map, target.table, names, param, end, at + 1) })
    } catch (error) {
      if (!(error instanceof QueryParamsError) || CAPABILITY_CODES.has(error.code)) throw error
      firstError ??= error
    }
  }
  if (branches.length === 0) throw firstError
  return { kind: 'morphExists', relation, branches }
}

function unreachable(): never {
  throw new Error('knex-query-params: an existence path resolved to nothing')
}
