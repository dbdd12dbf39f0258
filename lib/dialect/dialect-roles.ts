/**
 * What differs per database, split by who asks (issue 29): each member of `Dialect` belongs to exactly one role, an
 * interface of its own file (pinned by `spec/types/dialect-roles.ts`), so a new member has to say whom it serves.
 */
export type { DialectSyntax } from './dialect-syntax.ts'
export type { DialectPlanner } from './dialect-planner.ts'
export type { DialectRuntime } from './dialect-runtime.ts'
export type { DialectTooling } from './dialect-tooling.ts'
