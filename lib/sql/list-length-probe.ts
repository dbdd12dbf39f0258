import type { Learned } from './learned.ts'
import type { SqlWriter } from './sql-writer.ts'

/**
 * The probe of the key lists `lists` (each the related rows of one key, or of one listed relation filter), written to
 * `out`: `(<list> limit 1 offset cap − 1)`, not NULL when the list has `cap` rows; for several, `(case when … is not
 * null and … is not null then 1 end)`, 1 when each has. It reads at most `cap` entries of each list.
 */
export function listLengthProbe(out: SqlWriter, lists: Learned['keyLists'], cap: number): SqlWriter {
  const long = (list: Learned['keyLists'][number]): SqlWriter =>
    out
      .text('(')
      .append(list)
      .text(` limit 1 offset ${cap - 1})`)
  const [first] = lists
  if (lists.length === 1 && first !== undefined) return long(first)
  out.text('(case when ')
  lists.forEach((list, index) => {
    if (index > 0) out.text(' and ')
    long(list).text(' is not null')
  })
  return out.text(' then 1 end)')
}
