import { demoData } from '../../../fixtures/data.ts'
import type { PostRow, UserRow } from '../../../fixtures/tables.ts'

/** A list response body of the demo API. */
export interface ListBody<T = Record<string, unknown>> {
  data: T[]
  meta?: Record<string, unknown>
}

/** A single-record response body of the demo API. */
export interface RecordBody<T = Record<string, unknown>> {
  data: T
}

/** The ids of a list response, in response order. */
export const idsOf = (body: ListBody): number[] => body.data.map((row) => Number(row.id))

/** The ids of a list response, ascending (for queries that ask for no order). */
export const sortedIdsOf = (body: ListBody): number[] => idsOf(body).sort((a, b) => a - b)

/** Ids of the fixture rows that pass `keep`, ascending. */
export const fixtureIds = <T extends { id: number }>(rows: readonly T[], keep: (row: T) => boolean): number[] =>
  rows.filter(keep).map((row) => row.id)

/** A fixture timestamp (`YYYY-MM-DD HH:MM:SS`, UTC) as the demo API returns it. */
export const iso = (timestamp: string): string => new Date(`${timestamp.replace(' ', 'T')}Z`).toISOString()

/** The fixture user with `id`. */
export function user(id: number): UserRow {
  const row = demoData.users.find((candidate) => candidate.id === id)
  if (row === undefined) throw new Error(`no fixture user ${id}`)
  return row
}

/** The fixture post with `id`. */
export function post(id: number): PostRow {
  const row = demoData.posts.find((candidate) => candidate.id === id)
  if (row === undefined) throw new Error(`no fixture post ${id}`)
  return row
}
