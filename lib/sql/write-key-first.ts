import type { Condition } from '../validate/query-plan.ts'
import type { DirectRelation } from '../validate/resolved-relation.ts'
import { aliasFor, type AliasScope } from './alias-scope.ts'
import { guardKeyList } from './guard-key-list.ts'
import type { RelationFilterForm } from '../plan/relation-filter-form.ts'
import type { ConditionStyle } from '../plan/condition-style.ts'
import { NOTHING_LEARNED, type Learned } from './learned.ts'
import type { SqlWriter } from './sql-writer.ts'
import { writeTest } from './write-column-predicate.ts'
import { closeExists, openExists } from './write-exists.ts'

/**
 * Writes a relation filter whose related rows are one row found by a unique column, key first: the related
 * key as a scalar subquery, `(select related.key from related where related.name = ? and guard)`, compared
 * with the column that references it. Through a pivot, `key in (select pivot.parent from pivot where
 * pivot.related = (select …))` or the correlated `exists` of `form`; directly, `parent.column = (select …)`.
 * The database then reads an index on the referencing column for one value (for a pivot's `(related,
 * parent)` index, the parent keys in order) instead of joining the related table. `inner` must be a test
 * that at most one related row passes ({@link keyFirstTest}); the related table's guard stays in the
 * scalar subquery, the pivot's in the pivot's. Returns what it learned: the key's related rows where `style`
 * tells key lists, whether the pivot's index serves the page in order, whether it wrote the fence of
 * `style.fencedBase`.
 */
export function writeKeyFirst(
  out: SqlWriter,
  relation: DirectRelation,
  inner: Condition & { kind: 'test' },
  form: RelationFilterForm,
  ref: string,
  scope: AliasScope,
  style: ConditionStyle,
): Learned {
  const { names } = out
  const { pivot } = relation
  const parentKey = names.column(ref, relation.parentKey)
  const alias = aliasFor(relation.table, scope)
  const pivotAlias = pivot === undefined ? '' : aliasFor(pivot.table, new Set([...scope, alias]))
  const key = out.fresh()
  key.text(`(select ${names.column(alias, relation.relatedKey)} from ${names.table(relation.table, alias)} where `)
  if (relation.morph !== undefined)
    key
      .text(`${names.column(alias, relation.morph.column)} = `)
      .bind(relation.morph.value)
      .text(' and ')
  writeTest(key, names.column(alias, inner.column), inner.test)
  key.guards?.writeAnd(key, relation.table, alias)
  key.text(')')
  if (pivot === undefined) {
    out.text(`${parentKey} = `).append(key)
    if (style.keyLists === undefined || style.keyLists.base === ref) return NOTHING_LEARNED
    const list = out
      .fresh()
      .text(`select 1 from ${names.table(relation.parentTable, ref)} where ${parentKey} = `)
      .append(key)
    return learned([guardKeyList(list, relation, ref, pivotAlias, scope).fragment()], false, false)
  }
  const pivotTable = names.table(pivot.table, pivotAlias)
  const pivotParent = names.column(pivotAlias, pivot.parentColumn)
  const related = out
    .fresh()
    .text(`${names.column(pivotAlias, pivot.relatedColumn)} = `)
    .append(key)
  related.guards?.writeAnd(related, pivot.table, pivotAlias)
  const fenced = style.fencedBase === ref
  if (form === 'in' || fenced)
    out
      .text(`${parentKey} in (select ${pivotParent} from ${pivotTable} where `)
      .append(related)
      .text(fenced ? ' offset 0)' : ')')
  else {
    openExists(out, style, false, relation.many)
    out.text(`select 1 from ${pivotTable} where ${pivotParent} = ${parentKey} and `).append(related)
    closeExists(out, style, false, relation.many)
  }
  const { keyLists } = style
  if (keyLists === undefined) return fenced ? learned([], false, true) : NOTHING_LEARNED
  const list = guardKeyList(
    out.fresh().text(`select 1 from ${pivotTable} where `).append(related),
    relation,
    ref,
    pivotAlias,
    scope,
  )
  return learned([list.fragment()], keyLists.base === ref && keyLists.orderedBy === relation.parentKey, fenced)
}

function learned(keyLists: Learned['keyLists'], served: boolean, fenced: boolean): Learned {
  return Object.freeze({ keyLists: Object.freeze(keyLists), served, fenced })
}
