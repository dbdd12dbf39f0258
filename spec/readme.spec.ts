import { expect } from 'chai'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
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
    const output = execFileSync(process.execPath, ['--import', 'tsx', `${dir}/${name}.ts`], { cwd: root, encoding: 'utf8' })
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
})
