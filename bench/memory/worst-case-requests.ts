import type { RelationMap } from '../../lib/relation-map.ts'
import { scaleRelationMap } from '../scale/scale-relation-map.ts'

/** One of figure 8's requests: a client's query string on a table of the scale data set, or the body case. */
export interface WorstCaseRequest {
  name: string
  /** What the figure's table shows. */
  label: string
  table?: string
  query?: string
  /** The query the code before issue 18 gets instead (it had no top-N relation). */
  queryBefore?: string
  /** How many copies run at once. */
  concurrency?: number
  /** The parse case: bodies of 1 MB, each with a distinct unknown key and a distinct list index; no database. */
  bodies?: number
}

/**
 * Figure 8's requests: the most memory a valid request could take under the default options (limit ≤ 1,000,
 * `with` depth ≤ 3), on the scale data set (1,000 teams, 100,000 users, 1M posts on SQLite and MariaDB, 2M on
 * PostgreSQL, 1M comments, one tag per post).
 */
export const WORST_CASE_REQUESTS: readonly WorstCaseRequest[] = [
  {
    name: 'eager',
    label: 'teams?limit=1000&with[0]=members.posts',
    table: 'teams',
    query: 'limit=1000&with[0]=members.posts',
  },
  {
    name: 'eager-x5',
    label: 'the same, 5 at once',
    table: 'teams',
    query: 'limit=1000&with[0]=members.posts',
    concurrency: 5,
  },
  { name: 'star', label: 'posts?limit=1000&with[0]=*.*.*', table: 'posts', query: 'limit=1000&with[0]=*.*.*' },
  {
    name: 'to-one',
    label: 'teams?limit=1000&with[0]=firstMember (hasOne, 100 candidates each)',
    table: 'teams',
    query: 'limit=1000&with[0]=firstMember',
  },
  {
    name: 'top-n',
    label: 'teams?limit=1000&with[0]=newestMembers (3 per team; before: every member)',
    table: 'teams',
    query: 'limit=1000&with[0]=newestMembers',
    queryBefore: 'limit=1000&with[0]=members',
  },
  {
    name: 'at-budget',
    label: 'teams?limit=99&with[0]=members (9,921 rows: the largest eager load the default budget allows here)',
    table: 'teams',
    query: 'limit=99&with[0]=members',
  },
  { name: 'bodies', label: '1,000 bodies of 1 MB, distinct keys and list indices (retained heap)', bodies: 1000 },
]

/**
 * The scale map with a `hasOne` (`teams.firstMember`) and, from this issue on, a top-N relation
 * (`teams.newestMembers`: a team's 3 newest users); `before` leaves the latter's `limit`/`orders` out, which the
 * old map check rejects.
 */
export function worstCaseMap(before: boolean): RelationMap {
  const teams = scaleRelationMap.teams
  const newestMembers = before
    ? { type: 'hasMany', table: 'users', foreignKey: 'team_id' }
    : {
        type: 'hasMany',
        table: 'users',
        foreignKey: 'team_id',
        limit: 3,
        orders: [{ column: 'created_at', direction: 'desc' }],
      }
  return {
    ...scaleRelationMap,
    teams: {
      ...teams,
      relations: {
        ...teams.relations,
        firstMember: { type: 'hasOne', table: 'users', foreignKey: 'team_id' },
        newestMembers,
      },
    },
  } as RelationMap
}
