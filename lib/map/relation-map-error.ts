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
