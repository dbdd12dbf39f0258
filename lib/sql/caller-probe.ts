import type { SqlWriter } from './sql-writer.ts'

/**
 * How many of the caller's own rows, at most, make a caller small: walked whole, whatever the key (see
 * {@link callerProbe}).
 */
export const SMALL_CALLER_CAP_FACTOR = 4

/**
 * The frequency guard's probe for a guarded base table: `case when (select 1 from posts where guard limit 1 offset
 * 4·cap − 1) is null then 1 else <probe> end`. A caller who may see fewer than four times `cap` rows of the base
 * table walks them (the probe is not NULL) whatever the key, so their page costs what their own rows cost, the same
 * for a key another tenant uses on thousands of rows and for a key nobody uses; a larger caller's page form is
 * chosen by `probe`, which counts only rows they may see (`guardKeyList`). Without a guard on the base table
 * `probe` is returned as it is.
 */
export function callerProbe(probe: SqlWriter, table: string, ref: string, cap: number): SqlWriter {
  const { guards, names } = probe
  const guard = guards?.has(table) === true ? guards.sql(table, ref) : null
  if (guard === null) return probe
  const small = probe
    .fresh()
    .text(`case when (select 1 from ${names.table(table, ref)} where `)
    .text(guard.sql)
  for (const binding of guard.bindings) small.bindings.push(binding)
  return small
    .text(` limit 1 offset ${cap * SMALL_CALLER_CAP_FACTOR - 1}) is null then 1 else `)
    .append(probe)
    .text(' end')
}
