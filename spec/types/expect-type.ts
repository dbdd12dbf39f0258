/**
 * Compile-time assertions for the type tests in this folder (compiled by `npm run typecheck`, never run):
 * `type _ = Expect<Equal<A, B>>` fails to compile unless `A` and `B` are the same type.
 */
export type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false

/** Compiles only for `true`. */
export type Expect<T extends true> = T
