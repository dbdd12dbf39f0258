import { expect } from 'chai'
import { rewriteDeclarationImports } from '../../scripts/build/rewrite-declaration-imports.ts'

describe('build: rewriteDeclarationImports', () => {
  it('gives relative .ts, .mts and .cts specifiers the emitted extension', () => {
    const declaration = [
      "export { a } from './a.ts';",
      'export type { B } from "../b/b.ts";',
      "export * from './c.mts';",
      "import type { D } from './d.cts';",
      "export declare function f(): import('./e.ts').E;",
    ].join('\n')
    expect(rewriteDeclarationImports(declaration)).to.equal(
      [
        "export { a } from './a.js';",
        'export type { B } from "../b/b.js";',
        "export * from './c.mjs';",
        "import type { D } from './d.cjs';",
        "export declare function f(): import('./e.js').E;",
      ].join('\n'),
    )
  })

  it('keeps package specifiers, .js paths and strings that are not module specifiers', () => {
    const declaration = [
      "import type { Knex } from 'knex';",
      "import type { T } from 'some-package/file.ts';",
      "export { a } from './a.js';",
      'export declare const name = "./x.ts";',
    ].join('\n')
    expect(rewriteDeclarationImports(declaration)).to.equal(declaration)
  })
})
