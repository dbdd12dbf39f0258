import { expect } from 'chai'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import openapiTS, { astToString } from 'openapi-typescript'
import ts from 'typescript'
import { demoOpenApiDocument } from '../../demo/openapi.ts'
import { compileErrors as filesCompileErrors } from '../support/compile-errors.ts'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

/** Type assertions over the generated `components`: each table's schema agrees with `TableRecord` of the demo map. */
const AGREEMENT = `
import type { components } from './demo-api.ts'
import type { AggregateRecord, ColumnRecord, TableRecord } from '${ROOT}lib/index.ts'
import type { relationMap } from '${ROOT}fixtures/relation-map.ts'

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false
type Expect<T extends true> = T
type Map = typeof relationMap
type Generated<T extends keyof Map> = components['schemas'][T]

type Flat<O> = { [K in keyof O]: O[K] }
type Value<T extends keyof Map, K> = K extends keyof Generated<T> ? Exclude<Generated<T>[K], undefined> : 'missing'

// The same property names: columns, relations and aggregates.
type SameKeys<T extends keyof Map> = Equal<keyof Generated<T>, keyof TableRecord<Map, T>>
// Each column's value, once selected (the document cannot know which columns a request selects), is the same type.
type SameColumns<T extends keyof Map> = Equal<{ [K in keyof ColumnRecord<Map, T>]: Value<T, K> }, ColumnRecord<Map, T>>
// Each aggregate is optional and of the same type.
type SameAggregates<T extends keyof Map> = Equal<{ [K in keyof Flat<AggregateRecord<Map, T>>]?: Value<T, K> }, Flat<AggregateRecord<Map, T>>>
// A record TableRecord types is a value of the generated type, relations included.
type Assignable<T extends keyof Map> = TableRecord<Map, T> extends Generated<T> ? true : false

export type Checks = [
  Expect<Equal<'users' | 'teams' | 'posts' | 'comments' | 'tags' | 'images', keyof Map>>,
  Expect<SameKeys<'users'>>, Expect<SameColumns<'users'>>, Expect<SameAggregates<'users'>>, Expect<Assignable<'users'>>,
  Expect<SameKeys<'teams'>>, Expect<SameColumns<'teams'>>, Expect<SameAggregates<'teams'>>, Expect<Assignable<'teams'>>,
  Expect<SameKeys<'posts'>>, Expect<SameColumns<'posts'>>, Expect<SameAggregates<'posts'>>, Expect<Assignable<'posts'>>,
  Expect<SameKeys<'comments'>>, Expect<SameColumns<'comments'>>, Expect<SameAggregates<'comments'>>, Expect<Assignable<'comments'>>,
  Expect<SameKeys<'tags'>>, Expect<SameColumns<'tags'>>, Expect<SameAggregates<'tags'>>, Expect<Assignable<'tags'>>,
  Expect<SameKeys<'images'>>, Expect<SameColumns<'images'>>, Expect<SameAggregates<'images'>>, Expect<Assignable<'images'>>,
]
`

function compileErrors(files: readonly string[]): string[] {
  return filesCompileErrors(files, {
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    allowImportingTsExtensions: true,
    customConditions: ['knex-query-params:source'],
    skipLibCheck: true,
    types: ['node'],
  })
}

describe('openapi-typescript types of the demo document', function () {
  this.timeout(120_000)
  let dir: string
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kqp-openapi-types-'))
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }')
    const ast = await openapiTS(JSON.stringify(demoOpenApiDocument()))
    writeFileSync(join(dir, 'demo-api.ts'), astToString(ast))
  })
  after(() => {
    rmSync(dir, { recursive: true, force: true })
  })

  it('compile under strict, and each table schema agrees with TableRecord: same keys, same column and aggregate types, a TableRecord is assignable; the same check fails on a column typed otherwise', () => {
    writeFileSync(join(dir, 'agreement.ts'), AGREEMENT)
    writeFileSync(
      join(dir, 'disagreement.ts'),
      AGREEMENT.replace(
        "type Generated<T extends keyof Map> = components['schemas'][T]",
        "type Generated<T extends keyof Map> = Omit<components['schemas'][T], 'id'> & { id?: string }",
      ),
    )
    // One program for both files: each file's errors are its own.
    const errors = compileErrors([join(dir, 'agreement.ts'), join(dir, 'disagreement.ts')])
    expect(errors.filter((error) => !error.includes('disagreement.ts'))).to.deep.equal([])
    expect(errors.filter((error) => error.includes('disagreement.ts')).join('\n')).to.match(
      /does not satisfy the constraint 'true'/,
    )
  })
})
