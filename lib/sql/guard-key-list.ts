import type { DirectRelation } from '../validate/resolved-relation.ts'
import { aliasFor, type AliasScope } from './alias-scope.ts'
import type { SqlWriter } from './sql-writer.ts'

/**
 * Puts the caller's guards into a key list (the related rows of one key the frequency guard's probe counts,
 * `select 1 from post_topic where topic_id = (select …)`), so that the probe counts only rows the caller may see
 * and its remembered choice, keyed by the probe's SQL and bindings, is one per guard context. Read directly on the
 * parent table (`out` at `ref`), that is the parent's guard; through a pivot with no guard of its own, each pivot
 * row's parent is tested against its guard (`and exists (select 1 from posts where posts.id = post_topic.post_id
 * and guard)`). A pivot with a guard keeps only its own. Nothing is added where the parent has no guard.
 */
export function guardKeyList(
  list: SqlWriter,
  relation: DirectRelation,
  ref: string,
  pivotAlias: string,
  scope: AliasScope,
): SqlWriter {
  const { guards, names } = list
  if (guards === undefined || !guards.has(relation.parentTable)) return list
  const { pivot } = relation
  if (pivot === undefined) {
    guards.writeAnd(list, relation.parentTable, ref)
    return list
  }
  if (guards.has(pivot.table)) return list
  const owner = aliasFor(relation.parentTable, new Set([...scope, pivotAlias]))
  const ownerKey = names.column(owner, relation.parentKey)
  const joined = `${ownerKey} = ${names.column(pivotAlias, pivot.parentColumn)}`
  list.text(` and exists (select 1 from ${names.table(relation.parentTable, owner)} where ${joined}`)
  guards.writeAnd(list, relation.parentTable, owner)
  return list.text(')')
}
