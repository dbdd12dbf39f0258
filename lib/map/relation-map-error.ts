import { closestName } from './closest-name.ts'

/**
 * A mistake in the relation map: a plain `Error` (a bug in the server's code, never a client 400) whose
 * message starts with the path of the mistake, e.g. `users.relations.posts.type: …`.
 */
export function relationMapError(path: string, problem: string): Error {
  return new Error(`knex-query-params: ${path}: ${problem}`)
}

/** ` (did you mean 'hasMany'?)` when a candidate is close to `name`, else nothing. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const closest = closestName(name, candidates)
  return closest === undefined ? '' : ` (did you mean '${closest}'?)`
}

/** A short description of a value for a configuration error: `'hasmany'`, `42`, `null`, `an array`, `a function`. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return `'${value.length > 40 ? `${value.slice(0, 40)}…` : value}'`
  if (value === null || value === undefined || typeof value === 'number' || typeof value === 'boolean')
    return String(value)
  if (typeof value === 'function') return 'a function'
  if (Array.isArray(value)) return 'an array'
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}

/** Whether `value` is a plain object (not null, not an array, not a function). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
