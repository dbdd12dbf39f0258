import { expect } from 'chai'
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))

/** Runs the README's ```ts <name> block and checks it prints what its `// […]` or `// {…}` comment promises. */
function runBlock(name: string): void {
  const readme = readFileSync(`${root}README.md`, 'utf8')
  const block = new RegExp(`\`\`\`ts ${name}\\n([\\s\\S]*?)\`\`\``).exec(readme)?.[1]
  expect(block, `README has a \`\`\`ts ${name} block`).to.be.a('string')
  const promised = /^\/\/ ([[{].*[\]}])$/m.exec(block ?? '')?.[1]
  const dir = mkdtempSync(`${root}.readme-`)
  try {
    writeFileSync(`${dir}/${name}.ts`, block ?? '')
    // The condition resolves the package name to lib/, so this runs the source; `npm run test:consumers` runs the quick start on the tarball.
    const output = execFileSync(process.execPath, ['--conditions=knex-query-params:source', '--import', 'tsx', `${dir}/${name}.ts`], { cwd: root, encoding: 'utf8' })
    expect(output.trim()).to.equal(promised)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

describe('README', () => {
  it('quick start runs as written and prints the rows it promises', () => {
    runBlock('quickstart')
  })

  it('the row guards example runs as written and prints the rows it promises', () => {
    runBlock('guards')
  })

  it('links only to files and headings that exist in the repository', () => {
    const documents = ['README.md', 'SECURITY.md', 'CHANGELOG.md', 'docs/request-format.md']
    const anchorsOf = (file: string): Set<string> => new Set(
      [...readFileSync(join(root, file), 'utf8').matchAll(/^#{1,6} (.+)$/gm)].map(([, heading]) => githubSlug(heading ?? '')),
    )
    const broken: string[] = []
    for (const document of documents) {
      const text = readFileSync(join(root, document), 'utf8')
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (target === undefined || /^[a-z]+:/.test(target)) continue
        const [path = '', anchor] = target.split('#')
        const file = path === '' ? document : join(dirname(document), path)
        if (!existsSync(join(root, file))) broken.push(`${document}: ${target} (no such file)`)
        else if (anchor !== undefined && !anchorsOf(file).has(anchor)) broken.push(`${document}: ${target} (no such heading)`)
      }
    }
    expect(broken).to.deep.equal([])
  })
})

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens. */
function githubSlug(heading: string): string {
  return heading.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-')
}
