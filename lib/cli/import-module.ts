import { createRequire } from 'node:module'
import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { oneLine, UsageError } from './cli-io.ts'

interface TsxApi {
  tsImport(specifier: string, parentURL: string): Promise<Record<string, unknown>>
}

/**
 * Imports the module at `file` (relative to `cwd`) and returns its exports. A `.js`/`.mjs`/`.cjs` file
 * always loads; a `.ts` file loads where Node can import it (type stripping, or a loader such as tsx
 * already registered), else through `tsx` when the project has it installed. `what` names the file in
 * errors (`the relation map`, `the knexfile`).
 *
 * @throws {UsageError} when the file cannot be loaded.
 * @example
 * const module = await importModule('./knexfile.ts', process.cwd(), 'the knexfile')
 */
export async function importModule(file: string, cwd: string, what: string): Promise<Record<string, unknown>> {
  const path = resolve(cwd, file)
  try {
    return (await import(pathToFileURL(path).href)) as Record<string, unknown>
  } catch (error) {
    if (!/\.[cm]?ts$/.test(path) || !isUnknownExtension(error))
      throw new UsageError(`Cannot load ${what} ${file}: ${oneLine(error)}`)
    return importWithTsx(path, file, cwd, what)
  }
}

function isUnknownExtension(error: unknown): boolean {
  return (error as { code?: unknown }).code === 'ERR_UNKNOWN_FILE_EXTENSION'
}

async function importWithTsx(path: string, file: string, cwd: string, what: string): Promise<Record<string, unknown>> {
  let tsx: TsxApi
  try {
    tsx = (await import(pathToFileURL(tsxEsmApi(cwd)).href)) as TsxApi
  } catch {
    throw new UsageError(
      `Cannot load ${what} ${file}: this Node.js cannot import TypeScript. Install tsx (npm install --save-dev tsx), ` +
        'run with a Node.js that strips types (22.18 or later), or give a .js/.mjs file.',
    )
  }
  try {
    return await tsx.tsImport(pathToFileURL(path).href, import.meta.url)
  } catch (error) {
    throw new UsageError(`Cannot load ${what} ${file}: ${oneLine(error)}`)
  }
}

/** The path of tsx's ESM API (`tsx/esm/api`, its `import` condition) as installed for `cwd`. */
function tsxEsmApi(cwd: string): string {
  const manifest = createRequire(resolve(cwd, 'package.json')).resolve('tsx/package.json')
  const { exports } = JSON.parse(readFileSync(manifest, 'utf8')) as {
    exports: Record<string, { import?: { default?: string } } | undefined>
  }
  const entry = exports['./esm/api']?.import?.default
  if (entry === undefined) throw new Error('tsx has no ESM API')
  return resolve(dirname(manifest), entry)
}
