/** The shortest secret accepted: 32 bytes, the output size of SHA-256. */
export const MIN_SECRET_BYTES = 32

/** A cursor secret, or a list of them for rotation: the first signs, every one verifies. */
export type CursorSecret = string | Uint8Array | readonly (string | Uint8Array)[]

/**
 * The secrets as keys, the signing one first. Missing, empty or shorter than {@link MIN_SECRET_BYTES} is a plain
 * `Error`: a server's configuration mistake, never the client's.
 */
export function cursorKeys(secret: CursorSecret | undefined): readonly Buffer[] {
  const list =
    secret === undefined ? [] : typeof secret === 'string' || secret instanceof Uint8Array ? [secret] : [...secret]
  if (list.length === 0)
    throw new Error(
      'knex-query-params: cursorPaginate needs options.secret (a secret of at least 32 bytes, or a list of them)',
    )
  return list.map((item, index) => {
    const key = typeof item === 'string' ? Buffer.from(item, 'utf8') : Buffer.from(item)
    if (key.length < MIN_SECRET_BYTES) {
      throw new Error(
        `knex-query-params: cursorPaginate options.secret${list.length > 1 ? `[${index}]` : ''} ` +
          `has ${key.length} bytes; it needs at least ${MIN_SECRET_BYTES}`,
      )
    }
    return key
  })
}
