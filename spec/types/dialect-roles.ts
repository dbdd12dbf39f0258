// Type tests, compiled by `npm run typecheck` and never run: every member of Dialect belongs to exactly one role.
import type { Dialect } from '../../lib/dialect/dialect.ts'
import type { DialectPlanner, DialectRuntime, DialectSyntax, DialectTooling } from '../../lib/dialect/dialect-roles.ts'
import type { Equal, Expect } from './expect-type.ts'

type Syntax = keyof DialectSyntax
type Planner = keyof DialectPlanner
type Runtime = keyof DialectRuntime
type Tooling = keyof DialectTooling

export type EveryMemberHasARole = Expect<Equal<Syntax | Planner | Runtime | Tooling, keyof Dialect>>
export type NoMemberHasTwo = Expect<
  Equal<
    | (Syntax & Planner)
    | (Syntax & Runtime)
    | (Syntax & Tooling)
    | (Planner & Runtime)
    | (Planner & Tooling)
    | (Runtime & Tooling),
    never
  >
>
