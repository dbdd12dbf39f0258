import type { Knex } from 'knex'
import { runBounded } from '../bound/run-within-bound.ts'
import type { StatementBound } from '../bound/statement-bound.ts'
import { builderBeside } from '../knex/builder-methods.ts'
import { knexConfigOf } from '../knex/client.ts'
import { KEPT_GROUPS_ANSWER } from './correlated-order.ts'
import type { ProbedForm } from './page-rewrite.ts'

/** Probes remembered per database, the least recently used forgotten first. */
const MEMO_ENTRIES = 1_000

interface Remembered {
  form: ProbedForm
  until: number
}

const memos = new WeakMap<object, Map<string, Remembered>>()

/**
 * Runs `probe` (the guard of a page `builder` reads: see `guardedPage`) as a statement of its own, where
 * `builder` runs and within `bound`, and gives the form the page is read in: the walking form when the key
 * is frequent (the probe found its `cap`-th related row), else the listing form; the kept-groups form where the
 * probe answers `KEPT_GROUPS_ANSWER` (see `keptGroupsProbe`). Either form reads the rows
 * of the plain query, so what the probe found only decides how fast the page is read.
 *
 * The form is remembered for `memoMs` per database (the knex instance and its transactions) and per probe with
 * its bindings (the filter's value, the guards' context), for the 1,000 probes used last: a later read of a page
 * with the same filter value sends only the page. Data that changes a key from rare to common (or back) within
 * `memoMs` makes those reads slower, never different. `memoMs` 0 probes on every read.
 */
export async function chooseGuardedForm(
  builder: Knex.QueryBuilder,
  probe: Knex.Raw,
  bound: StatementBound | undefined,
  memoMs: number,
): Promise<ProbedForm> {
  const { client } = builder
  const memo = memoMs > 0 ? memoOf(client) : undefined
  const key = memo === undefined ? '' : keyOf(probe)
  const remembered = memo?.get(key)
  if (remembered !== undefined && remembered.until > Date.now()) {
    memo?.delete(key)
    memo?.set(key, remembered)
    return remembered.form
  }
  const statement = builderBeside(builder).select(client.raw('? as kqp_frequent', [probe]))
  const rows = (await runBounded(statement, bound)) as ReadonlyArray<Readonly<Record<string, unknown>>>
  const frequent = rows[0]?.kqp_frequent
  const form =
    frequent === null || frequent === undefined ? 'list' : Number(frequent) === KEPT_GROUPS_ANSWER ? 'kept' : 'walk'
  if (memo !== undefined) {
    memo.delete(key)
    memo.set(key, { form, until: Date.now() + memoMs })
    if (memo.size > MEMO_ENTRIES) memo.delete(memo.keys().next().value as string)
  }
  return form
}

function memoOf(client: Knex.Client): Map<string, Remembered> {
  const owner = knexConfigOf(client) ?? client
  let memo = memos.get(owner)
  if (memo === undefined) {
    memo = new Map()
    memos.set(owner, memo)
  }
  return memo
}

/** The probe's SQL and bindings as one string; a binding's type is part of it (`1` and `'1'` differ). */
function keyOf(probe: Knex.Raw): string {
  const { sql, bindings } = probe.toSQL()
  let key = sql
  for (const value of bindings)
    key += `\u0000${value instanceof Date ? `date:${value.toISOString()}` : `${typeof value}:${String(value)}`}`
  return key
}
