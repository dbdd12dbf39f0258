import type { Knex } from 'knex'
import { Model, type Modifiers, type RelationMappings } from 'objection'
import { relationMap } from '../../fixtures/relation-map.ts'

const columns = (table: keyof typeof relationMap): string[] =>
  Object.keys(relationMap[table].columns).map((column) => `${table}.${column}`)

/** Each model selects the allow-listed columns of its table, as the library does, so both fetch the same data. */
class Comment extends Model {
  static override get tableName(): string {
    return 'comments'
  }
  static override get modifiers(): Modifiers {
    return { allowed: (query) => query.select(columns('comments')) }
  }
}

class Post extends Model {
  static override get tableName(): string {
    return 'posts'
  }
  static override get modifiers(): Modifiers {
    return { allowed: (query) => query.select(columns('posts')) }
  }
  static override get relationMappings(): RelationMappings {
    return {
      comments: {
        relation: Model.HasManyRelation,
        modelClass: Comment,
        join: { from: 'posts.id', to: 'comments.post_id' },
      },
    }
  }
}

class User extends Model {
  static override get tableName(): string {
    return 'users'
  }
  static override get relationMappings(): RelationMappings {
    return {
      posts: { relation: Model.HasManyRelation, modelClass: Post, join: { from: 'users.id', to: 'posts.user_id' } },
    }
  }
}

/**
 * objection.js doing what `with=posts.comments` does: every user, then `withGraphFetched('posts.comments')`
 * (one `WHERE … IN` query per level), related rows ordered by id like the library's. Models bound to `db`.
 */
export function objectionUsersWithPostsAndComments(db: Knex): Promise<unknown[]> {
  const BoundUser = User.bindKnex(db)
  return BoundUser.query()
    .select(columns('users'))
    .withGraphFetched('posts(allowed, byId).comments(allowed, byId)')
    .modifiers({ byId: (query) => query.orderBy('id') }) as unknown as Promise<unknown[]>
}
