/** A setting a dialect changes on a connection's session for each bounded statement (see `Dialect.boundedSession`). */
export interface SessionSetting<Session extends object> {
  /** Whether the session needs the change, asked once per connection (one round trip) and remembered. */
  needed(session: Session): Promise<boolean>
  /** Sends the statement that changes the session. */
  change(session: Session): Promise<unknown>
  /** Sends the statement that changes it back. */
  restore(session: Session): Promise<unknown>
}

/**
 * The `boundedSession` of a setting: changes `session` for the statement about to run where it needs it, and returns
 * what changes it back (`undefined` when nothing was changed). Setting it back is queued on the connection, not
 * awaited: a connection runs its queries in order, so whoever uses it next runs after it.
 */
export function boundedSessionOf<Session extends object>(
  setting: SessionSetting<Session>,
): (session: Session) => Promise<(() => Promise<void>) | undefined> {
  const needs = new WeakMap<Session, boolean>()
  return async (session) => {
    let needed = needs.get(session)
    if (needed === undefined) {
      needed = await setting.needed(session)
      needs.set(session, needed)
    }
    if (!needed) return undefined
    await setting.change(session)
    return async () => {
      setting.restore(session).then(
        () => undefined,
        () => undefined,
      )
    }
  }
}
