import type { Knex } from 'knex'
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

/**
 * The release before the memory, time-bound, JSON and skew work (issues 19, 20, 24): the commit figure 8 calls
 * "before". Figure 1 times it beside the current library, in the same process, as a column.
 */
export const RELEASE_BEFORE = '9aec7d4'

/** What figure 1 calls of a version of the library. */
export interface BuildingLibrary {
  parseQueryParams(query: string): unknown
  applyQueryParams(query: Knex.QueryBuilder, params: never, map: never): Knex.QueryBuilder
  relationMap: unknown
}

/**
 * The library and fixture map of {@link RELEASE_BEFORE}, extracted from git into `bench/.before/` (git-ignored) on
 * first use, or `undefined` where there is no git history (a package tarball).
 */
export async function releaseBefore(): Promise<BuildingLibrary | undefined> {
  const root = fileURLToPath(new URL('..', import.meta.url))
  const folder = join(root, 'bench', '.before', RELEASE_BEFORE)
  if (!existsSync(join(folder, 'lib', 'index.ts'))) {
    try {
      mkdirSync(folder, { recursive: true })
      const archive = execFileSync('git', ['archive', RELEASE_BEFORE, 'lib', 'fixtures'], {
        cwd: root,
        maxBuffer: 64 * 1024 * 1024,
      })
      execFileSync('tar', ['-x', '-C', folder], { input: archive })
    } catch {
      return undefined
    }
  }
  const library = (await import(pathToFileURL(join(folder, 'lib', 'index.ts')).href)) as Omit<
    BuildingLibrary,
    'relationMap'
  >
  const fixtures = (await import(pathToFileURL(join(folder, 'fixtures', 'relation-map.ts')).href)) as {
    relationMap: unknown
  }
  return {
    parseQueryParams: library.parseQueryParams,
    applyQueryParams: library.applyQueryParams,
    relationMap: fixtures.relationMap,
  }
}
