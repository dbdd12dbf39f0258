import type { BenchDialect } from '../data/bench-servers.ts'
import type { ExpertForm, ScaleCase } from '../scale/scale-cases.ts'

/** A rare and a common value of each skewed column (`bench/skewed/skewed-dataset.ts`). */
export const SKEWED_VALUES = {
  tag: { rare: 'tag 1000', common: 'tag 1' },
  team: { rare: 'Team 1000', common: 'Team 1' },
  author: { rare: 'user100000@example.com', common: 'user1@example.com' },
} as const

type Rarity = 'rare' | 'common'
type Order = 'newest' | 'key'

const POST_COLUMNS = 'p.id, p.user_id, p.title, p.kind, p.published_at, p.views, p.created_at'
const USER_COLUMNS = 'u.id, u.team_id, u.name, u.email, u.created_at'
const PAGE = 'limit 20'

function form(name: string, why: string, sql: string, bindings: Array<string | number>): ExpertForm {
  return { name, why, sql: sql.replace(/\s+/g, ' ').trim(), bindings }
}

/** `order by` of a page newest first or by key on alias `a`, and the same written so no index can serve it (the planner must find the rows first, then sort). */
function orderBy(dialect: BenchDialect, a: string, order: Order, unindexed = false): string {
  if (!unindexed) return order === 'newest' ? `order by ${a}.created_at desc, ${a}.id desc` : `order by ${a}.id asc`
  if (dialect === 'postgres')
    return order === 'newest'
      ? `order by ${a}.created_at + interval '0 s' desc, ${a}.id desc`
      : `order by ${a}.id + 0 asc`
  if (dialect === 'sqlite')
    return order === 'newest' ? `order by +${a}.created_at desc, ${a}.id desc` : `order by +${a}.id asc`
  return order === 'newest' ? `order by ${a}.created_at desc, ${a}.id desc` : `order by ${a}.id asc`
}

/** MariaDB's hint that keeps the page's order index off (`ignore index for order by`), for the list-then-sort forms. */
function ignoreOrderIndex(dialect: BenchDialect, table: 'posts' | 'users', order: Order): string {
  if (dialect !== 'mysql') return ''
  if (order === 'key') return 'ignore index for order by (primary)'
  return `ignore index for order by (${table === 'posts' ? 'posts_created_at' : 'users_created_at'})`
}

interface Filter {
  /** A predicate on `p` (posts) or `u` (users), or a join clause (`join` forms). */
  where?: string
  join?: string
  name: string
  why: string
  /** The rows are found first and then sorted: written with an order no index serves. */
  listFirst?: boolean
  /** PostgreSQL: a materialized CTE `k` joined in by `in`. */
  cte?: string
}

function pageForms(
  dialect: BenchDialect,
  table: 'posts' | 'users',
  order: Order,
  filters: Filter[],
  bindings: (filter: Filter) => Array<string | number>,
  extra = '',
): ExpertForm[] {
  const a = table === 'posts' ? 'p' : 'u'
  const columns = table === 'posts' ? POST_COLUMNS : USER_COLUMNS
  return filters.map((filter) => {
    const hint = filter.listFirst === true ? ignoreOrderIndex(dialect, table, order) : ''
    const where = [filter.where, extra].filter((part) => part !== undefined && part !== '').join(' and ')
    const sql = `${filter.cte === undefined ? '' : `with k as materialized (${filter.cte}) `}select ${columns} from ${table} ${a} ${hint} ${filter.join ?? ''} ${where === '' ? '' : `where ${where}`} ${orderBy(dialect, a, order, filter.listFirst)} ${PAGE}`
    return form(filter.name, filter.why, sql, bindings(filter))
  })
}

const KEY = {
  tag: '(select t.id from tags t where t.name = ?)',
  team: '(select t.id from teams t where t.name = ?)',
  author: '(select u.id from users u where u.email = ?)',
}

/** The expert's forms of `posts` filtered by `tags.name` (many-to-many through post_tag's `(tag_id, post_id)` index). */
function tagFilters(dialect: BenchDialect, _order: Order): Filter[] {
  const filters: Filter[] = [
    {
      name: 'key in (select … join)',
      why: 'the posts of the tag found through the join of post_tag and tags',
      where: 'p.id in (select pt.post_id from post_tag pt join tags t on t.id = pt.tag_id where t.name = ?)',
    },
    {
      name: 'key in, key first',
      why: "the tag's id first (unique name), then post_tag(tag_id, post_id) for that one value",
      where: `p.id in (select pt.post_id from post_tag pt where pt.tag_id = ${KEY.tag})`,
    },
    {
      name: 'correlated exists',
      why: 'per post, a probe of post_tag joined to tags',
      where:
        'exists (select 1 from post_tag pt join tags t on t.id = pt.tag_id where pt.post_id = p.id and t.name = ?)',
    },
    {
      name: 'correlated exists, key first',
      why: "walks the page's order and probes post_tag(tag_id, post_id) for the tag's id",
      where: `exists (select 1 from post_tag pt where pt.post_id = p.id and pt.tag_id = ${KEY.tag})`,
    },
    {
      name: 'inner join, key first',
      why: 'post_tag rows of the tag joined to posts (no duplicates: (post_id, tag_id) is the key)',
      join: 'join post_tag pt on pt.post_id = p.id',
      where: `pt.tag_id = ${KEY.tag}`,
    },
    {
      name: 'list first, then sort',
      why: "the tag's posts found first through post_tag(tag_id, post_id), then sorted: the order's index kept out of the plan",
      where: `p.id in (select pt.post_id from post_tag pt where pt.tag_id = ${KEY.tag})`,
      listFirst: true,
    },
  ]
  if (dialect === 'postgres') {
    filters.push({
      name: 'materialized CTE',
      why: 'the post ids of the tag computed once, as a fence the planner cannot look through',
      cte: `select pt.post_id from post_tag pt where pt.tag_id = ${KEY.tag}`,
      where: 'p.id in (select post_id from k)',
    })
  }
  if (dialect === 'mysql') {
    filters.push({
      name: 'dependent subquery with limit 1',
      why: "MariaDB turns exists and in into a semi-join; a subquery with limit stays a probe per post while the order's index is walked",
      where: `(select pt.post_id from post_tag pt where pt.post_id = p.id and pt.tag_id = ${KEY.tag} limit 1) is not null`,
    })
  }
  return filters
}

/** `author.team.name`: two belongsTo hops (posts → users → teams). */
function teamFilters(dialect: BenchDialect): Filter[] {
  const filters: Filter[] = [
    {
      name: 'key in (select … join)',
      why: "the team's users through users ⋈ teams, their posts through posts(user_id, created_at)",
      where: 'p.user_id in (select u.id from users u join teams t on t.id = u.team_id where t.name = ?)',
    },
    {
      name: 'key in, key first',
      why: "the team's id first, its users through users(team_id)",
      where: `p.user_id in (select u.id from users u where u.team_id = ${KEY.team})`,
    },
    {
      name: 'correlated exists',
      why: 'per post, its author and team checked',
      where: 'exists (select 1 from users u join teams t on t.id = u.team_id where u.id = p.user_id and t.name = ?)',
    },
    {
      name: 'correlated exists, key first',
      why: "per post, its author's team compared with the team's id",
      where: `exists (select 1 from users u where u.id = p.user_id and u.team_id = ${KEY.team})`,
    },
    {
      name: 'inner join, key first',
      why: 'posts joined to their author (to-one), the team by id',
      join: 'join users u on u.id = p.user_id',
      where: `u.team_id = ${KEY.team}`,
    },
    {
      name: 'list first, then sort',
      why: "the team's posts found first, then sorted: the order's index kept out of the plan",
      where: `p.user_id in (select u.id from users u where u.team_id = ${KEY.team})`,
      listFirst: true,
    },
  ]
  if (dialect === 'postgres') {
    filters.push({
      name: 'materialized CTE',
      why: "the team's user ids computed once",
      cte: `select u.id from users u where u.team_id = ${KEY.team}`,
      where: 'p.user_id in (select id from k)',
    })
  }
  if (dialect === 'mysql') {
    filters.push({
      name: 'dependent subquery with limit 1',
      why: "a probe of the author's team per post while the order's index is walked (no semi-join)",
      where: `(select u.id from users u where u.id = p.user_id and u.team_id = ${KEY.team} limit 1) is not null`,
    })
  }
  return filters
}

/** `author.email`: one belongsTo hop to a unique column; posts per author are skewed. */
function authorFilters(): Filter[] {
  return [
    {
      name: 'key first',
      why: "the author's id first, then posts(user_id, created_at) for that one value, in order",
      where: `p.user_id = ${KEY.author}`,
    },
    {
      name: 'key in (select …)',
      why: 'the author as a one-row list',
      where: 'p.user_id in (select u.id from users u where u.email = ?)',
    },
    {
      name: 'correlated exists',
      why: 'per post, its author checked',
      where: 'exists (select 1 from users u where u.id = p.user_id and u.email = ?)',
    },
    {
      name: 'inner join',
      why: 'posts joined to their author (to-one)',
      join: 'join users u on u.id = p.user_id',
      where: 'u.email = ?',
    },
  ]
}

/** `users` filtered by `posts.tags.name`: hasMany, then many-to-many. */
function userTagFilters(dialect: BenchDialect): Filter[] {
  const filters: Filter[] = [
    {
      name: 'key in (select … join)',
      why: 'authors of the posts of the tag, through posts ⋈ post_tag ⋈ tags',
      where:
        'u.id in (select p.user_id from posts p join post_tag pt on pt.post_id = p.id join tags t on t.id = pt.tag_id where t.name = ?)',
    },
    {
      name: 'key in, key first',
      why: "the tag's id first, its posts through post_tag(tag_id, post_id), their authors",
      where: `u.id in (select p.user_id from post_tag pt join posts p on p.id = pt.post_id where pt.tag_id = ${KEY.tag})`,
    },
    {
      name: 'correlated exists',
      why: 'per user, their posts probed for the tag',
      where:
        'exists (select 1 from posts p join post_tag pt on pt.post_id = p.id join tags t on t.id = pt.tag_id where p.user_id = u.id and t.name = ?)',
    },
    {
      name: 'correlated exists, key first',
      why: "per user, their posts through posts(user_id, …) probed in post_tag(tag_id, post_id) for the tag's id",
      where: `exists (select 1 from posts p join post_tag pt on pt.post_id = p.id where p.user_id = u.id and pt.tag_id = ${KEY.tag})`,
    },
    {
      name: 'list first, then sort',
      why: "the tag's authors found first, then sorted: the order's index kept out of the plan",
      where: `u.id in (select p.user_id from post_tag pt join posts p on p.id = pt.post_id where pt.tag_id = ${KEY.tag})`,
      listFirst: true,
    },
  ]
  if (dialect === 'postgres') {
    filters.push({
      name: 'materialized CTE',
      why: "the tag's authors computed once",
      cte: `select p.user_id from post_tag pt join posts p on p.id = pt.post_id where pt.tag_id = ${KEY.tag}`,
      where: 'u.id in (select user_id from k)',
    })
  }
  if (dialect === 'mysql') {
    filters.push({
      name: 'dependent subquery with limit 1',
      why: "a probe of the user's posts per user while the order's index is walked (no semi-join)",
      where: `(select p.id from posts p join post_tag pt on pt.post_id = p.id where p.user_id = u.id and pt.tag_id = ${KEY.tag} limit 1) is not null`,
    })
  }
  return filters
}

/** `relationsExists=comments` as the library writes it per database, and the other form. */
function commentForms(dialect: BenchDialect): Array<{ name: string; sql: string }> {
  const forms = [
    { name: 'exists', sql: 'exists (select 1 from comments c where c.post_id = p.id)' },
    { name: 'in', sql: 'p.id in (select c.post_id from comments c)' },
  ]
  if (dialect === 'mysql')
    forms.push({
      name: 'limit 1',
      sql: '(select c.post_id from comments c where c.post_id = p.id limit 1) is not null',
    })
  return forms
}

const label = { newest: 'newest first', key: 'by key' }
const ORDER_REQUEST = {
  newest: [{ column: 'created_at', direction: 'desc' }],
  key: [{ column: 'id', direction: 'asc' }],
}
const where = (column: string, value: string): Record<string, unknown> => ({
  wheres: [{ column, operator: '=', value, boolean: 'and' }],
})

/** Figure 13: each relation filter of figure 6 with a rare and a common value, newest first and by key (issue 20). */
export function skewedCases(): ScaleCase[] {
  const cases: ScaleCase[] = []
  const rarities: Rarity[] = ['rare', 'common']
  const orders: Order[] = ['newest', 'key']
  for (const rarity of rarities) {
    for (const order of orders) {
      const tag = SKEWED_VALUES.tag[rarity]
      const team = SKEWED_VALUES.team[rarity]
      const author = SKEWED_VALUES.author[rarity]
      const page = { orders: ORDER_REQUEST[order], limit: 20, page: 1 }
      const tagBindings = (): string[] => [tag]
      cases.push({
        name: `tags.name = '${tag}' (many-to-many, ${rarity}), ${label[order]}`,
        request: { ...page, ...where('tags.name', tag) },
        expert: (dialect) => pageForms(dialect, 'posts', order, tagFilters(dialect, order), tagBindings),
      })
      cases.push({
        name: `author.team.name = '${team}' (two belongsTo hops, ${rarity}), ${label[order]}`,
        request: { ...page, ...where('author.team.name', team) },
        expert: (dialect) => pageForms(dialect, 'posts', order, teamFilters(dialect), () => [team]),
      })
      cases.push({
        name: `author.email = '${author}' (belongsTo, ${rarity} author), ${label[order]}`,
        request: { ...page, ...where('author.email', author) },
        expert: (dialect) => pageForms(dialect, 'posts', order, authorFilters(), () => [author]),
      })
      cases.push({
        name: `users: posts.tags.name = '${tag}' (hasMany, ${rarity}), ${label[order]}`,
        table: 'users',
        request: { ...page, ...where('posts.tags.name', tag) },
        expert: (dialect) => pageForms(dialect, 'users', order, userTagFilters(dialect), () => [tag]),
      })
      cases.push({
        name: `relationsExists comments, tags.name = '${tag}' (${rarity}), ${label[order]}`,
        request: { ...page, ...where('tags.name', tag), relationsExists: ['comments'] },
        expert: (dialect) =>
          commentForms(dialect).flatMap((comments) =>
            pageForms(dialect, 'posts', order, tagFilters(dialect, order), tagBindings, comments.sql).map((each) => ({
              ...each,
              name: `${each.name}; comments ${comments.name}`,
            })),
          ),
      })
    }
    const tag = SKEWED_VALUES.tag[rarity]
    cases.push({
      name: `order by author.name, tags.name = '${tag}' (${rarity})`,
      request: {
        orders: [{ column: 'author.name', direction: 'asc' }],
        limit: 20,
        page: 1,
        ...where('tags.name', tag),
      },
      expert: (dialect) =>
        tagFilters(dialect, 'key')
          .filter((filter) => filter.cte === undefined)
          .flatMap((filter) => {
            const join = `join users u on u.id = p.user_id ${filter.join ?? ''}`
            const bindings = [tag]
            const sorted = `order by ${dialect === 'sqlite' && filter.listFirst === true ? '+' : ''}u.name asc, p.id asc`
            return [
              form(
                filter.name,
                filter.why,
                `select ${POST_COLUMNS} from posts p ${join} where ${filter.where ?? ''} ${sorted} ${PAGE}`,
                bindings,
              ),
            ]
          }),
    })
  }
  return cases
}
