import type { Knex } from 'knex'
import { internalsOf } from '../knex/knex-internals.ts'

/** The base table of a builder and the name its columns are qualified with (its alias, if any). */
export interface TableReference {
  table: string
  ref: string
}

const AS = /^\s*(\S+)\s+as\s+(\S+)\s*$/i
const WHITESPACE = /\s/

/** Reads the base table from `db('posts')` or `db('posts as p')`; `options.table` wins when given. */
export function tableReference(builder: Knex.QueryBuilder, table?: string): TableReference {
  const single = internalsOf(builder)._single.table
  const match = typeof single === 'string' && WHITESPACE.test(single) ? AS.exec(single) : null
  const fromBuilder = match === null ? (typeof single === 'string' ? single.trim() : undefined) : match[1]
  const ref = match?.[2] ?? table ?? fromBuilder
  const name = table ?? fromBuilder
  if (name === undefined || ref === undefined) {
    throw new Error('knex-query-params: cannot tell the base table from the builder; pass options.table')
  }
  return { table: name, ref }
}
