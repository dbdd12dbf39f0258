import { expect } from 'chai'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))

describe('README', () => {
  it('quick start runs as written and prints the rows it promises', () => {
    const readme = readFileSync(`${root}README.md`, 'utf8')
    const block = /```ts quickstart\n([\s\S]*?)```/.exec(readme)?.[1]
    expect(block, 'README has a ```ts quickstart block').to.be.a('string')
    const promised = /^\/\/ (\[.*\])$/m.exec(block ?? '')?.[1]
    const dir = mkdtempSync(`${root}.readme-`)
    try {
      writeFileSync(`${dir}/quickstart.ts`, block ?? '')
      // The condition resolves the package name to lib/, so this runs the source; `npm run test:consumers` runs it on the tarball.
      const output = execFileSync(process.execPath, ['--conditions=knex-query-params:source', '--import', 'tsx', `${dir}/quickstart.ts`], { cwd: root, encoding: 'utf8' })
      expect(output.trim()).to.equal(promised)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
