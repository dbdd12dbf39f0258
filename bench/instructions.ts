import type { Knex } from 'knex'
import { relationMap } from '../fixtures/relation-map.ts'
import { applyQueryParams, parseQueryParams } from '../lib/index.ts'
import { cases } from './building-cost.ts'
import { releaseBefore } from './release-before.ts'
import { sqlClients } from './sql-clients.ts'

/**
 * Figure 1's requests for an instruction count, which the machine's load does not change (unlike a time): every
 * `case:stage:version` named runs `WARM` times (interleaved, as the figure interleaves them), then `RUNS` times
 * inside a `JSON.parse` reviver, so that callgrind, told to dump before `JsonParseInternalizer::Internalize`, writes
 * one file per operation after the first (the warm-up) and the files in between hold each operation's runs alone:
 *
 *   valgrind --tool=callgrind --dump-before='v8::internal::JsonParseInternalizer::Internalize*' \
 *     --callgrind-out-file=cg node --single-threaded --import tsx bench/instructions.ts 300 100 \
 *     'typical request:pipeline:current' 'typical request:hand:current' …
 *
 * (`cg.2` is the first operation's, `cg.3` the second's…; instructions per request = its `totals` / `RUNS`.) A case
 * is named as in figure 1; a stage is `pipeline` (parse + apply + toSQL), `apply` (apply + toSQL, params parsed
 * once), `parse` or `hand` (the knex chain + toSQL); a version `current` or `release` (`RELEASE_BEFORE`).
 */
const [warm = '300', runs = '100', ...specs] = process.argv.slice(2)
const before = await releaseBefore()
const db = sqlClients.postgres

function operation(spec: string): () => unknown {
  const [name, stage, version = 'current'] = spec.split(':')
  const found = cases().find((each) => each.name === name)
  if (found === undefined) throw new Error(`no case '${name}' in figure 1`)
  const { queryString, hand } = found
  if (stage === 'hand') return () => hand(db, 'postgres').toSQL()
  const library =
    version === 'release'
      ? (before as unknown as { parseQueryParams: typeof parseQueryParams; applyQueryParams: typeof applyQueryParams })
      : { parseQueryParams, applyQueryParams }
  const map = (version === 'release' ? before?.relationMap : relationMap) as typeof relationMap
  const params = library.parseQueryParams(queryString)
  const apply = (given: typeof params): Knex.QueryBuilder => library.applyQueryParams(db('users'), given, map)
  if (stage === 'pipeline') return () => apply(library.parseQueryParams(queryString)).toSQL()
  if (stage === 'apply') return () => apply(params).toSQL()
  if (stage === 'parse') return () => library.parseQueryParams(queryString)
  throw new Error(`unknown stage '${stage}'`)
}

const operations = specs.map(operation)
let last: unknown
for (let round = 0; round < 10; round++)
  for (const run of operations) for (let i = 0; i < Number(warm) / 10; i++) last = run()
for (const run of operations) {
  JSON.parse('[0]', (key, value: unknown) => {
    if (key === '0') for (let i = 0; i < Number(runs); i++) last = run()
    return value
  })
}
// One more dump, so that the last operation's runs have a file of their own.
JSON.parse('[0]', (_key, value: unknown) => value)
if (last === undefined) throw new Error('nothing ran')
