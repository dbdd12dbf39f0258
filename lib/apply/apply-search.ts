import type { Knex } from 'knex'
import { selectedValues } from '../knex/builder-state.ts'
import type { SqlWriter } from '../sql/sql-writer.ts'
import { type JoinedSearch, joinedSearch, writeSearch } from '../sql/write-search.ts'
import type { PlannedSearch } from '../validate/planned-search.ts'
import type { ConditionStyle } from '../plan/condition-style.ts'

/**
 * Adds the request's search to `builder` (after its selection): one parenthesised condition, and, for a `fulltext`
 * search on a database whose full-text index is a table of its own (SQLite's FTS5), that table joined into the
 * `from` so the page reads the matches in its order and stops at the limit. The join is left out when the builder
 * selects `*` (the full-text table's columns would join the row). Returns the join, which the orders read the key
 * and the relevance from, or `undefined`. Its relation filters are written in `style`.
 */
export function applySearch(
  builder: Knex.QueryBuilder,
  out: SqlWriter,
  search: PlannedSearch,
  ref: string,
  table: string,
  style: ConditionStyle,
): JoinedSearch | undefined {
  const joined = selectedValues(builder)?.includes('*') === true ? undefined : joinedSearch(out, search, ref, table)
  if (joined === undefined) writeSearch(out, search, ref, table, style)
  else builder.joinRaw(joined.join)
  builder.whereRaw(out.toRaw(builder.client))
  return joined
}
