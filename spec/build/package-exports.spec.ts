import { expect } from 'chai'
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../..', import.meta.url))

interface Manifest {
  exports: Record<string, string | Record<string, string>>
  bin?: Record<string, string>
  main: string
  types: string
  files: string[]
}

const manifest = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as Manifest

/** `./lib/x/y.ts` → the `dist/` files tsc emits for it. */
function emitted(source: string): { js: string; dts: string } {
  const base = source.replace(/^\.\/lib\//, './dist/').replace(/\.ts$/, '')
  return { js: `${base}.js`, dts: `${base}.d.ts` }
}

describe('package.json: exports mirror lib/ in dist/', () => {
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    if (subpath === './package.json') continue
    it(`${subpath}: source, types, import, default in that order, one lib/ file and its dist/ outputs`, () => {
      expect(target).to.be.an('object')
      const conditions = target as Record<string, string>
      expect(Object.keys(conditions)).to.deep.equal(['knex-query-params:source', 'types', 'import', 'default'])
      const source = conditions['knex-query-params:source'] ?? ''
      expect(source).to.match(/^\.\/lib\/.+\.ts$/)
      expect(existsSync(`${root}${source}`), `${source} exists`).to.equal(true)
      const { js, dts } = emitted(source)
      expect(conditions).to.deep.include({ types: dts, import: js, default: js })
      const name = subpath === '.' ? 'index' : subpath.slice(2)
      expect(source, 'the subpath names the file').to.match(new RegExp(`/${name}\\.ts$`))
    })
  }

  it('main and types point at the root entry for resolvers without exports', () => {
    const rootEntry = manifest.exports['.'] as Record<string, string>
    expect(manifest.main).to.equal(rootEntry['import'])
    expect(manifest.types).to.equal(rootEntry['types'])
  })

  it('every bin is a dist/ file compiled from a lib/ source', () => {
    for (const [name, bin] of Object.entries(manifest.bin ?? {})) {
      expect(bin, name).to.match(/^\.\/dist\/.+\.js$/)
      const source = bin.replace(/^\.\/dist\//, 'lib/').replace(/\.js$/, '.ts')
      expect(existsSync(`${root}${source}`), `${name}: ${source} exists`).to.equal(true)
    }
  })

  it('ships dist/ and the files the README links to', () => {
    expect(manifest.files).to.include.members(['dist', 'README.md', 'LICENSE', 'CHANGELOG.md', 'SECURITY.md', 'docs'])
  })
})
