import { expect } from 'chai'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const LIB = fileURLToPath(new URL('../../lib/', import.meta.url))

/**
 * The layers of lib/, lowest first: a file imports from its own folder or from a lower layer, never from its
 * own layer's other folders or from above. The entries (index.ts, http.ts, introspect.ts) may import anything.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['errors', 'knex', 'query-params.ts'],
  ['relation-map.ts'],
  ['values.ts', 'map', 'guard'],
  ['dialect'],
  ['bound', 'normalize'],
  ['options.ts'],
  ['parse'],
  ['validate'],
  ['plan'],
  ['sql'],
  ['eager-load'],
  ['apply'],
  ['cursor'],
  ['read'],
  ['http', 'introspect'],
  ['openapi'],
  ['integrations', 'cli'],
]
const ENTRIES = new Set(['index.ts', 'http.ts', 'introspect.ts', 'openapi.ts'])

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith('.ts') ? [path] : []
  })
}

/** The top-level folder or file of lib/ that `path` is in: `apply` for lib/apply/x.ts, `options.ts` for lib/options.ts. */
const unitOf = (path: string): string => relative(LIB, path).split(/[\\/]/)[0] ?? ''

function layerOf(unit: string): number {
  const layer = LAYERS.findIndex((units) => units.includes(unit))
  if (layer === -1) throw new Error(`spec/build/layers.spec.ts: lib/${unit} is in no layer; add it to LAYERS`)
  return layer
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((match) => match[1] ?? '')
  return specifiers.map((specifier) => resolve(dirname(file), specifier))
}

describe('lib/ layers', () => {
  it('every file imports only from its own folder or a lower layer (parse → validate → plan → sql → eager-load → apply, with map, dialect and knex below)', () => {
    const upward: string[] = []
    for (const file of sourceFiles(LIB)) {
      const unit = unitOf(file)
      if (ENTRIES.has(unit)) continue
      for (const target of importsOf(file)) {
        const other = unitOf(target)
        if (other === unit) continue
        if (ENTRIES.has(other) || layerOf(other) >= layerOf(unit))
          upward.push(`${relative(LIB, file)} → ${relative(LIB, target)}`)
      }
    }
    expect(upward, 'imports that run sideways or up').to.deep.equal([])
  })

  it('knows every folder and top-level file of lib/', () => {
    const units = new Set(sourceFiles(LIB).map(unitOf))
    for (const unit of units) if (!ENTRIES.has(unit)) expect(layerOf(unit), unit).to.be.at.least(0)
  })
})
