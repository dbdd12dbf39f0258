import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import ts from 'typescript'
import type { RelationMap } from '../../../lib/relation-map.ts'
import { compileErrors as filesCompileErrors } from '../../support/compile-errors.ts'

const root = fileURLToPath(new URL('../../..', import.meta.url))
const LIBRARY = join(root, 'lib/index.ts')

/**
 * The TypeScript errors of compiling `files` (generated relation-map modules) as a strict ESM project whose
 * `knex-query-params` is this repository's `lib/` (and `knex` its knex); each directory needs a `package.json` with `"type": "module"`.
 */
export function compileErrors(files: readonly string[]): string[] {
  for (const directory of new Set(files.map((file) => dirname(file))))
    writeFileSync(join(directory, 'package.json'), '{ "type": "module" }\n')
  return filesCompileErrors(files, {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    allowImportingTsExtensions: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    customConditions: ['knex-query-params:source'],
    skipLibCheck: true,
    types: ['node'],
    typeRoots: [join(root, 'node_modules/@types')],
    paths: { 'knex-query-params': [LIBRARY], knex: [join(root, 'node_modules/knex/types/index.d.ts')] },
  })
}

/** Imports a generated module (its `knex-query-params` import pointed at this repository's `lib/`) and returns its `relationMap`. */
export async function importGeneratedMap(file: string): Promise<RelationMap> {
  const runnable = file.replace(/\.ts$/, '.run.ts')
  writeFileSync(
    runnable,
    readFileSync(file, 'utf8').replace(
      "from 'knex-query-params'",
      `from ${JSON.stringify(pathToFileURL(LIBRARY).href)}`,
    ),
  )
  const module = (await import(pathToFileURL(runnable).href)) as { relationMap: RelationMap }
  return module.relationMap
}
