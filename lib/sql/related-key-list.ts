import type { DirectRelation } from '../validate/resolved-relation.ts'
import { aliasFor, type AliasScope } from './alias-scope.ts'
import type { Fragment } from './fragment.ts'
import type { SqlWriter } from './sql-writer.ts'

/**
 * The rows of a listed relation filter's key list (`posts.id in (select comments.post_id from comments where …)`) as
 * the probe of a probed list counts them (see `probedListFilter`): `select 1 from comments as <alias> where …`, its
 * related rows (`alias`, with the names visible in `scope`) through a pivot joined to them where the relation has
 * one, `inner` (written into the list by `writeInner`), and the caller's guards of the related table and the pivot.
 * Where the parent table has a guard and the rows are not its own, each is tested against it (`and exists (select 1
 * from posts where posts.id = comments.post_id and guard)`), so the probe counts only rows the caller may see.
 */
export function relatedKeyList(
  out: SqlWriter,
  relation: DirectRelation,
  alias: string,
  scope: AliasScope,
  writeInner: (into: SqlWriter) => void,
): Fragment {
  const { names, guards } = out
  const list = out.fresh()
  const table = names.table(relation.table, alias)
  const { pivot } = relation
  const visible = new Set(scope)
  let pivotAlias = ''
  let parentColumn = names.column(alias, relation.relatedKey)
  if (pivot === undefined) list.text(`select 1 from ${table} where `)
  else {
    pivotAlias = aliasFor(pivot.table, visible)
    visible.add(pivotAlias)
    parentColumn = names.column(pivotAlias, pivot.parentColumn)
    list.text(
      `select 1 from ${names.table(pivot.table, pivotAlias)} inner join ${table} on ` +
        `${names.column(alias, relation.relatedKey)} = ${names.column(pivotAlias, pivot.relatedColumn)} where `,
    )
  }
  if (relation.morph !== undefined)
    list
      .text(`${names.column(alias, relation.morph.column)} = `)
      .bind(relation.morph.value)
      .text(' and ')
  writeInner(list)
  guards?.writeAnd(list, relation.table, alias)
  if (pivot !== undefined) guards?.writeAnd(list, pivot.table, pivotAlias)
  const ownGuard = pivot !== undefined && guards?.has(pivot.table) === true
  if (guards?.has(relation.parentTable) === true && !ownGuard) {
    const owner = aliasFor(relation.parentTable, visible)
    list.text(
      ` and exists (select 1 from ${names.table(relation.parentTable, owner)} where ` +
        `${names.column(owner, relation.parentKey)} = ${parentColumn}`,
    )
    guards.writeAnd(list, relation.parentTable, owner)
    list.text(')')
  }
  return list.fragment()
}
