/**
 * A two-tenant data set for the row-guard specs, generated from a fixed seed: every table has `tenant_id`
 * (1 or 2) and `deleted_at` (a soft delete, set on about one row in seven). Foreign keys mostly stay inside
 * the row's tenant, but some point at the other tenant's rows or at soft-deleted ones, and some are null,
 * so that every relation meets rows a guard must hide.
 */
export type TenantRow = Record<string, string | number | null>

/** The tables of the data set, parents first (the order they are created and filled in). */
export const TENANT_TABLES = ['teams', 'users', 'posts', 'comments', 'tags', 'post_tag', 'images'] as const

/** One of {@link TENANT_TABLES}. */
export type TenantTable = (typeof TENANT_TABLES)[number]

/** The tenant whose view the specs check. */
export const TENANT = 1

const SIZES: Record<TenantTable, number> = {
  teams: 6,
  users: 14,
  posts: 30,
  comments: 48,
  tags: 8,
  post_tag: 40,
  images: 24,
}
const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'merger', 'omega', 'Zeta', 'kappa']
const DELETED = '2024-06-01 12:00:00'

/** A small deterministic generator (mulberry32), so the data set is the same on every database and run. */
function random(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Every row of every table of the two-tenant data set. */
export function tenantData(seed = 11): Record<TenantTable, TenantRow[]> {
  const next = random(seed)
  const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)] as T
  const data = Object.fromEntries(TENANT_TABLES.map((table) => [table, [] as TenantRow[]])) as Record<
    TenantTable,
    TenantRow[]
  >
  /** A key of `table` for a row of `tenant`: usually the same tenant, sometimes any row, sometimes null. */
  const reference = (table: TenantTable, tenant: number, nullable = true): number | null => {
    const roll = next()
    if (nullable && roll < 0.08) return null
    const rows = data[table]
    const pool = roll < 0.8 ? rows.filter((row) => row.tenant_id === tenant) : rows
    return Number(pick(pool.length > 0 ? pool : rows).id)
  }
  const base = (table: TenantTable, id: number): TenantRow => {
    void table
    return { id, tenant_id: next() < 0.55 ? 1 : 2, deleted_at: next() < 0.14 ? DELETED : null }
  }
  // Teams reference their owners, users their teams: owners are filled in after the users exist.
  for (let id = 1; id <= SIZES.teams; id++)
    data.teams.push({ ...base('teams', id), name: `${pick(WORDS)} team ${id}`, owner_id: null })
  for (let id = 1; id <= SIZES.users; id++) {
    const row = base('users', id)
    data.users.push({
      ...row,
      team_id: reference('teams', Number(row.tenant_id)),
      name: `${pick(WORDS)} ${id}`,
      score: Math.floor(next() * 50),
    })
  }
  for (const team of data.teams) team.owner_id = reference('users', Number(team.tenant_id))
  for (let id = 1; id <= SIZES.posts; id++) {
    const row = base('posts', id)
    data.posts.push({
      ...row,
      user_id: reference('users', Number(row.tenant_id), false),
      title: `${pick(WORDS)} ${pick(WORDS)} ${id}`,
      views: Math.floor(next() * 200),
    })
  }
  for (let id = 1; id <= SIZES.comments; id++) {
    const row = base('comments', id)
    const tenant = Number(row.tenant_id)
    data.comments.push({
      ...row,
      post_id: reference('posts', tenant, false),
      user_id: reference('users', tenant),
      body: `${pick(WORDS)} ${id}`,
    })
  }
  for (let id = 1; id <= SIZES.tags; id++) data.tags.push({ ...base('tags', id), name: `${pick(WORDS)}-${id}` })
  for (let id = 1; id <= SIZES.post_tag; id++) {
    const row = base('post_tag', id)
    const tenant = Number(row.tenant_id)
    data.post_tag.push({ ...row, post_id: reference('posts', tenant, false), tag_id: reference('tags', tenant, false) })
  }
  for (let id = 1; id <= SIZES.images; id++) {
    const row = base('images', id)
    const type = next() < 0.5 ? 'User' : 'Post'
    data.images.push({
      ...row,
      imageable_type: type,
      imageable_id: reference(type === 'User' ? 'users' : 'posts', Number(row.tenant_id), false),
      url: `/img/${id}.png`,
    })
  }
  return data
}

/** Whether `row` is visible to `tenant`: its own and not soft-deleted. */
export const visibleTo = (row: TenantRow, tenant = TENANT): boolean =>
  row.tenant_id === tenant && row.deleted_at === null

/**
 * The rows `tenant` may see, table by table: what the single-tenant database holds. A pivot row is kept only
 * when both rows it links are visible too: a pivot is a link table whose rows a foreign key keeps valid, and
 * `relationsExists` of a belongsToMany relation reads the pivot alone when the related table has no guard.
 */
export function visibleData(data: Record<TenantTable, TenantRow[]>, tenant = TENANT): Record<TenantTable, TenantRow[]> {
  const visible = Object.fromEntries(
    TENANT_TABLES.map((table) => [table, data[table].filter((row) => visibleTo(row, tenant))]),
  ) as Record<TenantTable, TenantRow[]>
  const ids = (table: TenantTable): Set<unknown> => new Set(visible[table].map((row) => row.id))
  const posts = ids('posts')
  const tags = ids('tags')
  visible.post_tag = visible.post_tag.filter((link) => posts.has(link.post_id) && tags.has(link.tag_id))
  return visible
}
