import { relationMap } from '../fixtures/relation-map.ts'

/** A resource of the demo API; its routes live under `/<name>` and it reads the table of the same name. */
export type ResourceName = keyof typeof relationMap

/** What a client may write to one resource, beyond the relation map's allow-list. */
export interface WriteRules {
  /** Attributes a `POST` must carry (not `null`). */
  required: readonly string[]
  /** Values for stored columns that no client may see or set, used on `POST` (e.g. a password hash). */
  hiddenDefaults?: Readonly<Record<string, string>>
}

/** The demo's resources: every table of the relation map. */
export const RESOURCES = Object.keys(relationMap) as ResourceName[]

/** Allow-listed columns a client may send but never sets: the server owns them, so they are ignored. */
export const SERVER_COLUMNS: ReadonlySet<string> = new Set(['id', 'created_at', 'updated_at'])

/**
 * Write rules per resource. `users.password` is not allow-listed, so a new user gets `!` (no usable
 * password, as in `/etc/shadow`) and a client sending `password` gets a 400.
 */
export const WRITE_RULES: Readonly<Record<ResourceName, WriteRules>> = {
  users: { required: ['name', 'email'], hiddenDefaults: { password: '!' } },
  teams: { required: ['name'] },
  posts: { required: ['user_id', 'title'] },
  comments: { required: ['post_id', 'user_id', 'body'] },
  tags: { required: ['name'] },
  images: { required: ['imageable_type', 'imageable_id', 'url'] },
}
