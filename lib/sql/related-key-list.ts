import type { DirectRelation } from '../validate/resolved-relation.ts'
import { aliasFor, type AliasScope } from './alias-scope.ts'
import type { Fragment } from './fragment.ts'
import type { SqlWriter } from './sql-writer.ts'

/**
 * The rows of a listed relation filter's key list (`posts.id in (select comments.post_id from comments where …)`) as
 * the probe of a probed list counts them (see `probedListFilter`): `select 1` and `rows`, the list's own `from … where
 * …` with the caller's guards of the related table and its pivot. Where the parent table has a guard and the rows
 * are not its own (no guarded pivot), each is tested against it through `parentColumn`, the list's key (`and exists
 * (select 1 from posts as posts_2 where posts_2.id = comments.post_id and guard)`), so the probe counts only rows the
 * caller may see. `scope`: the names visible in `rows`.
 */
export function relatedKeyList(
  rows: SqlWriter,
  relation: DirectRelation,
  parentColumn: string,
  scope: AliasScope,
): Fragment {
  const { names, guards } = rows
  const list = rows.fresh().text('select 1 ').append(rows.fragment())
  const { pivot } = relation
  const ownGuard = pivot !== undefined && guards?.has(pivot.table) === true
  if (guards?.has(relation.parentTable) === true && !ownGuard) {
    const owner = aliasFor(relation.parentTable, scope)
    list.text(
      ` and exists (select 1 from ${names.table(relation.parentTable, owner)} where ` +
        `${names.column(owner, relation.parentKey)} = ${parentColumn}`,
    )
    guards.writeAnd(list, relation.parentTable, owner)
    list.text(')')
  }
  return list.fragment()
}
