import type { BenchDialect } from '../data/bench-servers.ts'
import type { RelationMap } from '../../lib/relation-map.ts'

/** SQL text with `?` placeholders and its bindings. */
export interface BoundSql {
  sql: string
  bindings: Array<string | number>
}

/** One way an expert writes a case by hand for one database, and why it should be the fastest. */
export interface ExpertForm extends BoundSql {
  name: string
  why: string
}

/** One common API request of figure 6, on `posts`. */
export interface ScaleCase {
  name: string
  /** The table the request lists; `posts` when absent. */
  table?: string
  /** What the browser client sends (as `clientQueryString` encodes it). */
  request: Record<string, unknown>
  /** Run through `paginate` (page + exact count, sent together) rather than as a plain list. */
  withCount?: boolean
  /** Candidate hand-written page queries for `dialect`; the bench times them and takes the fastest as the baseline. */
  expert(dialect: BenchDialect): ExpertForm[]
  /** The hand-written count, for cases `withCount`. */
  count?(dialect: BenchDialect): BoundSql
  /** The relation map the request is applied with; figure 6's `scaleRelationMap` when absent. */
  map?: RelationMap
}

const COLUMNS = 'p.id, p.user_id, p.title, p.kind, p.published_at, p.views, p.created_at'
const NEWEST = 'order by p.created_at desc, p.id desc'
const PAGE = 'limit 20'
const KIND = 'review'
const TAG = 'tag 7'
const TEAM = 'Team 42'

const newest = { orders: [{ column: 'created_at', direction: 'desc' }], limit: 20, page: 1 }

function form(name: string, why: string, sql: string, bindings: Array<string | number> = []): ExpertForm {
  return { name, why, sql: sql.replace(/\s+/g, ' ').trim(), bindings }
}

/** The nine cases of figure 6 (issue 13, point 7). */
export const SCALE_CASES: readonly ScaleCase[] = [
  {
    name: 'newest first, page 1',
    request: newest,
    expert: () => [
      form(
        'index walk',
        'reads the (created_at, id) index backwards and stops after 20 entries',
        `select ${COLUMNS} from posts p ${NEWEST} ${PAGE}`,
      ),
    ],
  },
  {
    name: `kind = '${KIND}', newest first`,
    request: { ...newest, wheres: [{ column: 'kind', operator: '=', value: KIND, boolean: 'and' }] },
    expert: () => [
      form(
        'index walk',
        'one range of the (kind, created_at, id) index, read backwards, 20 entries',
        `select ${COLUMNS} from posts p where p.kind = ? ${NEWEST} ${PAGE}`,
        [KIND],
      ),
    ],
  },
  {
    name: 'newest first, page 500',
    request: { ...newest, page: 500 },
    expert: () => [
      form(
        'offset',
        'walks the (created_at, id) index backwards past 9,980 entries',
        `select ${COLUMNS} from posts p ${NEWEST} ${PAGE} offset 9980`,
      ),
      form(
        'deferred join',
        'skips the 9,980 rows in the covering (created_at, id) index alone, then fetches only the 20 rows of the page',
        `select ${COLUMNS} from (select id from posts order by created_at desc, id desc limit 20 offset 9980) k
         join posts p on p.id = k.id ${NEWEST}`,
      ),
    ],
  },
  {
    name: 'order by nullable published_at desc',
    request: { orders: [{ column: 'published_at', direction: 'desc' }], limit: 20, page: 1 },
    expert: (dialect) => [
      dialect === 'postgres'
        ? form(
            'index walk',
            'NULLs last when descending (the smallest values), the order of the (published_at desc nulls last, id desc) index read forwards',
            `select ${COLUMNS} from posts p order by p.published_at desc nulls last, p.id desc ${PAGE}`,
          )
        : form(
            'index walk',
            'NULLs sort first ascending here, so the (published_at, id) index read backwards gives NULLs last',
            `select ${COLUMNS} from posts p order by p.published_at desc, p.id desc ${PAGE}`,
          ),
    ],
  },
  {
    name: `tags.name = '${TAG}' (many-to-many), newest first`,
    request: { ...newest, wheres: [{ column: 'tags.name', operator: '=', value: TAG, boolean: 'and' }] },
    expert: () => [
      form(
        'key in (select …)',
        'finds the tag by its unique name, its ~0.1% of posts through the (tag_id, post_id) index, then sorts only those',
        `select ${COLUMNS} from posts p where p.id in (select pt.post_id from post_tag pt join tags t on t.id = pt.tag_id where t.name = ?) ${NEWEST} ${PAGE}`,
        [TAG],
      ),
      form(
        'inner join',
        'the same path as a join; no duplicates since (post_id, tag_id) is the key and tags.name is unique',
        `select ${COLUMNS} from posts p join post_tag pt on pt.post_id = p.id join tags t on t.id = pt.tag_id where t.name = ? ${NEWEST} ${PAGE}`,
        [TAG],
      ),
      form(
        'correlated exists',
        'walks posts newest first and probes the pivot per post',
        `select ${COLUMNS} from posts p where exists (select 1 from post_tag pt join tags t on t.id = pt.tag_id where pt.post_id = p.id and t.name = ?) ${NEWEST} ${PAGE}`,
        [TAG],
      ),
    ],
  },
  {
    name: `author.team.name = '${TEAM}' (two belongsTo hops), newest first`,
    request: { ...newest, wheres: [{ column: 'author.team.name', operator: '=', value: TEAM, boolean: 'and' }] },
    expert: () => [
      form(
        'key in (select …)',
        "the team's ~100 users through users(team_id), their posts through posts(user_id, created_at), then a top-20 sort",
        `select ${COLUMNS} from posts p where p.user_id in (select u.id from users u join teams t on t.id = u.team_id where t.name = ?) ${NEWEST} ${PAGE}`,
        [TEAM],
      ),
      form(
        'inner join',
        'the same path as joins (each hop is to-one, so no duplicates)',
        `select ${COLUMNS} from posts p join users u on u.id = p.user_id join teams t on t.id = u.team_id where t.name = ? ${NEWEST} ${PAGE}`,
        [TEAM],
      ),
      form(
        'correlated exists',
        'walks posts newest first and checks each author',
        `select ${COLUMNS} from posts p where exists (select 1 from users u join teams t on t.id = u.team_id where u.id = p.user_id and t.name = ?) ${NEWEST} ${PAGE}`,
        [TEAM],
      ),
    ],
  },
  {
    name: 'relationsExists comments, newest first',
    request: { ...newest, relationsExists: ['comments'] },
    expert: (dialect) => [
      ...(dialect === 'mysql'
        ? [
            form(
              'dependent subquery with limit 1',
              'MariaDB turns EXISTS and IN into a semi-join and materializes all 1M comments first; a subquery with LIMIT cannot become one, so it stays a probe per post while the created_at index is walked',
              `select ${COLUMNS} from posts p where (select c.post_id from comments c where c.post_id = p.id limit 1) is not null ${NEWEST} ${PAGE}`,
            ),
          ]
        : []),
      form(
        'correlated exists',
        'walks posts newest first and probes comments(post_id) per post; 1 post in 20 has comments, so ~400 probes',
        `select ${COLUMNS} from posts p where exists (select 1 from comments c where c.post_id = p.id) ${NEWEST} ${PAGE}`,
      ),
      form(
        'key in (select …)',
        'a semi-join the planner may run from either side',
        `select ${COLUMNS} from posts p where p.id in (select c.post_id from comments c) ${NEWEST} ${PAGE}`,
      ),
    ],
  },
  {
    name: 'order by author.name (belongsTo)',
    request: { orders: [{ column: 'author.name', direction: 'asc' }], limit: 20, page: 1 },
    expert: (dialect) => [
      ...(dialect === 'mysql'
        ? [
            form(
              'inner join below a cutoff',
              "MySQL/MariaDB cannot read an index in order for an ORDER BY over two tables and sort the whole join; the 20th row's author name, found by a STRAIGHT_JOIN ordered by users.name alone (an index walk), bounds the join to a few rows (right whenever the table has 20 posts)",
              `select ${COLUMNS} from posts p join users u on u.id = p.user_id
               where u.name <= (select u2.name from users u2 straight_join posts p2 on p2.user_id = u2.id order by u2.name limit 1 offset 19)
               order by u.name asc, p.id asc ${PAGE}`,
            ),
          ]
        : []),
      form(
        'inner join',
        'users in users(name) order, each author’s posts through posts(user_id, …): stops after 20 (user_id is NOT NULL with a foreign key, so no post is lost)',
        `select ${COLUMNS} from posts p join users u on u.id = p.user_id order by u.name asc, p.id asc ${PAGE}`,
      ),
    ],
  },
  {
    name: `kind = '${KIND}', newest first, with its count`,
    request: { ...newest, wheres: [{ column: 'kind', operator: '=', value: KIND, boolean: 'and' }] },
    withCount: true,
    expert: () => [
      form(
        'index walk',
        'one range of the (kind, created_at, id) index, read backwards, 20 entries',
        `select ${COLUMNS} from posts p where p.kind = ? ${NEWEST} ${PAGE}`,
        [KIND],
      ),
    ],
    count: () => ({ sql: 'select count(*) as total from posts p where p.kind = ?', bindings: [KIND] }),
  },
]
