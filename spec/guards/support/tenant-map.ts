import type { Guard, RelationMap } from '../../../lib/relation-map.ts'

/** What the guards of the tenant map read from `options.context`. */
export interface TenantContext {
  tenantId: number
}

/** How the spec's guard is written: plainly, or as an equivalent `or` of two groups (which must stay grouped). */
export type GuardStyle = 'plain' | 'or'

/** The tenant and soft-delete guard, qualified with the alias it is given. */
export const tenantGuard: Guard<TenantContext> = (query, { table, context }) => {
  query.where(`${table}.tenant_id`, context.tenantId).whereNull(`${table}.deleted_at`)
}

/** The same rows, written as `(deleted_at is null and tenant_id = ?) or (tenant_id = ? and deleted_at is null)`. */
export const orGuard: Guard<TenantContext> = (query, { table, context }) => {
  query
    .whereNull(`${table}.deleted_at`)
    .where(`${table}.tenant_id`, context.tenantId)
    .orWhere((inner) => inner.where(`${table}.tenant_id`, context.tenantId).whereNull(`${table}.deleted_at`))
}

/**
 * The relation map of the two-tenant tables named `<prefix>teams`, `<prefix>users`…, every relation type
 * included (the pivot `post_tag` is in the map too). With a `guard`, every table gets it; without, none does.
 */
export function tenantMap(prefix: string): RelationMap
export function tenantMap(prefix: string, guard: Guard<TenantContext>): RelationMap<TenantContext>
export function tenantMap(prefix: string, guard?: Guard<TenantContext>): RelationMap<TenantContext> {
  const t = (name: string): string => `${prefix}${name}`
  const map: RelationMap<TenantContext> = {
    [t('teams')]: {
      columns: { id: 'integer', tenant_id: 'integer', name: 'string', owner_id: 'integer' },
      relations: {
        owner: { type: 'belongsTo', table: t('users'), foreignKey: 'owner_id' },
        members: { type: 'hasMany', table: t('users'), foreignKey: 'team_id' },
      },
    },
    [t('users')]: {
      columns: { id: 'integer', tenant_id: 'integer', team_id: 'integer', name: 'string', score: 'integer' },
      relations: {
        team: { type: 'belongsTo', table: t('teams'), foreignKey: 'team_id' },
        posts: { type: 'hasMany', table: t('posts'), foreignKey: 'user_id' },
        comments: { type: 'hasMany', table: t('comments'), foreignKey: 'user_id' },
        ownedTeam: { type: 'hasOne', table: t('teams'), foreignKey: 'owner_id' },
        avatar: { type: 'morphOne', table: t('images'), name: 'imageable', morphType: 'User' },
        images: { type: 'morphMany', table: t('images'), name: 'imageable', morphType: 'User' },
      },
    },
    [t('posts')]: {
      columns: { id: 'integer', tenant_id: 'integer', user_id: 'integer', title: 'string', views: 'integer' },
      relations: {
        author: { type: 'belongsTo', table: t('users'), foreignKey: 'user_id' },
        comments: { type: 'hasMany', table: t('comments'), foreignKey: 'post_id' },
        tags: {
          type: 'belongsToMany',
          table: t('tags'),
          pivotTable: t('post_tag'),
          foreignPivotKey: 'post_id',
          relatedPivotKey: 'tag_id',
        },
        images: { type: 'morphMany', table: t('images'), name: 'imageable', morphType: 'Post' },
      },
    },
    [t('comments')]: {
      columns: { id: 'integer', tenant_id: 'integer', post_id: 'integer', user_id: 'integer', body: 'string' },
      relations: {
        post: { type: 'belongsTo', table: t('posts'), foreignKey: 'post_id' },
        author: { type: 'belongsTo', table: t('users'), foreignKey: 'user_id' },
      },
    },
    [t('tags')]: {
      columns: { id: 'integer', tenant_id: 'integer', name: 'string' },
      relations: {
        posts: {
          type: 'belongsToMany',
          table: t('posts'),
          pivotTable: t('post_tag'),
          foreignPivotKey: 'tag_id',
          relatedPivotKey: 'post_id',
        },
      },
    },
    [t('post_tag')]: {
      columns: { id: 'integer', tenant_id: 'integer', post_id: 'integer', tag_id: 'integer' },
    },
    [t('images')]: {
      columns: {
        id: 'integer',
        tenant_id: 'integer',
        imageable_type: 'string',
        imageable_id: 'integer',
        url: 'string',
      },
      relations: {
        imageable: { type: 'morphTo', name: 'imageable', types: { User: t('users'), Post: t('posts') } },
      },
    },
  }
  if (guard !== undefined) for (const definition of Object.values(map)) definition.guard = guard
  return map
}
