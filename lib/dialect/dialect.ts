import type { DialectName } from './dialect-name.ts'
import type { DialectPlanner } from './dialect-planner.ts'
import type { DialectRuntime } from './dialect-runtime.ts'
import type { DialectSyntax } from './dialect-syntax.ts'
import type { DialectTooling } from './dialect-tooling.ts'

export type { DialectName } from './dialect-name.ts'
export type { FrequencyGuard } from './dialect-planner.ts'
export type { LikeSql } from './dialect-syntax.ts'
export type { StoppableRead } from './dialect-runtime.ts'

/**
 * What the library needs to know about a database: the differences, as data and small functions, split by who asks
 * them (issue 29): {@link DialectSyntax} (how SQL is spelled), {@link DialectPlanner} (which form of a read runs
 * fastest), {@link DialectRuntime} (running and cancelling statements) and {@link DialectTooling} (EXPLAIN, estimates,
 * catalogs). Code that needs one role takes that role. `Name` narrows the flags a database cannot honour (only
 * PostgreSQL has `lateral` among them), so a dialect that would write SQL its database rejects does not compile.
 */
export interface Dialect<Name extends DialectName = DialectName>
  extends DialectSyntax<Name>,
    DialectPlanner<Name>,
    DialectRuntime,
    DialectTooling {}
