/**
 * Thrown by `prepareDatabase` when the demo's database holds tables (or knex migrations) the demo did not
 * create: the demo refuses to migrate or seed it, and writes nothing.
 *
 * @example
 * try { await prepareDatabase(db) } catch (error) { if (error instanceof ForeignDatabaseError) console.error(error.message) }
 */
export class ForeignDatabaseError extends Error {
  /** The tables and migrations that are not the demo's. */
  readonly foreign: readonly string[]

  constructor(foreign: readonly string[]) {
    const listed = foreign.slice(0, 10).join(', ') + (foreign.length > 10 ? `, … (${foreign.length} in all)` : '')
    super(
      `The demo refuses to migrate or seed this database: it holds tables the demo did not create (${listed}). ` +
        'The demo only sets up an empty database or one it set up before. Point DATABASE_URL at a new, empty ' +
        'database (e.g. `createdb kqp_demo`, then DATABASE_URL=postgres://…/kqp_demo), or unset it to use demo.sqlite.',
    )
    this.name = 'ForeignDatabaseError'
    this.foreign = foreign
  }
}
