/**
 * `npm run test:consumers` (run by `.ci/run`): uses the package the way users get it. Packs the tarball
 * (`prepack` builds `dist/`), lints it with publint and "are the types wrong", installs it into throwaway
 * projects in a temporary directory, type-checks the TypeScript ones, and runs the README quick start
 * (and a `require()` consumer) against SQLite with plain `node`. Exits non-zero on any error.
 *
 * The projects share one `node_modules` in the temporary directory: the tarball is installed by npm
 * (peers left to the project) from npm's cache where it can; on a fresh machine the cache holds the
 * lockfile's tarballs but not the registry metadata of the package's own dependencies, which npm then
 * fetches. The peer dependencies (`knex`, the drivers, the frameworks of the subpath exports), their
 * `@types` and `@types/node` are linked from this repository's `node_modules`,
 * so no native module is rebuilt. Every subpath export is type-checked and imported too. `KEEP_CONSUMERS=1` keeps the directory.
 */
import { execFile, execFileSync } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  copyFileSync,
} from 'node:fs'
import { createRequire } from 'node:module'
import { availableParallelism, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import ts from 'typescript'
import { CONSUMERS, TS_BASE, type Consumer } from './consumers.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))
const files = fileURLToPath(new URL('files/', import.meta.url))
const require = createRequire(import.meta.url)
const tsc = require.resolve('typescript/bin/tsc')
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  name: string
  exports: Record<string, unknown>
  peerDependencies?: Record<string, string>
}
/** The subpath exports besides the root (`knex-query-params/fastify`…), as import specifiers. */
const SUBPATHS = Object.keys(manifest.exports)
  .filter((subpath) => subpath !== '.' && subpath !== './package.json')
  .map((subpath) => `${manifest.name}${subpath.slice(1)}`)

function run(command: string, args: string[], cwd: string): string {
  try {
    return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string }
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}\n${stdout ?? ''}${stderr ?? ''}`)
  }
}

/** The script of a dev dependency's command, run with this Node rather than through `npx`. */
async function runAsync(command: string, args: string[], cwd: string): Promise<string> {
  try {
    return (await promisify(execFile)(command, args, { cwd, encoding: 'utf8' })).stdout
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string }
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}\n${stdout ?? ''}${stderr ?? ''}`)
  }
}

function binOf(name: string, command: string): string {
  const modules = realpathSync(join(root, 'node_modules'))
  const manifest = JSON.parse(readFileSync(join(modules, name, 'package.json'), 'utf8')) as {
    bin: Record<string, string>
  }
  const bin = manifest.bin[command]
  if (bin === undefined) throw new Error(`${name} has no \`${command}\` command`)
  return join(modules, name, bin)
}

function timed<T>(label: string, step: () => T): T {
  const start = performance.now()
  const result = step()
  console.log(`  ${label.padEnd(44)} ${((performance.now() - start) / 1000).toFixed(1)} s`)
  return result
}

/** The README's ```ts quickstart block and the output line it promises. */
function readQuickStart(): { source: string; promised: string } {
  const readme = readFileSync(join(root, 'README.md'), 'utf8')
  const source = /```ts quickstart\n([\s\S]*?)```/.exec(readme)?.[1]
  const promised = /^\/\/ (\[.*\])$/m.exec(source ?? '')?.[1]
  if (source === undefined || promised === undefined)
    throw new Error('README.md has no ```ts quickstart block with a `// [...]` output line')
  return { source, promised }
}

function toJavaScript(source: string): string {
  return ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
  }).outputText
}

/** Imports every subpath export: TypeScript checks their declarations, Node loads their JavaScript. */
function subpathsSource(language: 'ts' | 'js'): string {
  const imports = SUBPATHS.map((specifier, index) => `import * as subpath${index} from '${specifier}'`)
  const list = `[${SUBPATHS.map((_specifier, index) => `subpath${index}`).join(', ')}]`
  return language === 'ts'
    ? `${imports.join('\n')}\nexport const subpaths: object[] = ${list}\n`
    : `${imports.join('\n')}\nconst loaded = ${list}.filter((module) => Object.keys(module).length > 0)\nconsole.log(\`\${loaded.length} subpaths\`)\n`
}

function writeConsumer(dir: string, consumer: Consumer, quickStart: string): void {
  mkdirSync(dir)
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: consumer.name, private: true, type: consumer.type }, null, 2)}\n`,
  )
  for (const file of consumer.files) copyFileSync(join(files, file), join(dir, file))
  if (consumer.quickStart === 'ts') writeFileSync(join(dir, 'quickstart.ts'), quickStart)
  if (consumer.quickStart === 'js') writeFileSync(join(dir, 'quickstart.js'), toJavaScript(quickStart))
  if (consumer.subpaths === true && consumer.tsconfig !== undefined)
    writeFileSync(join(dir, 'subpaths.ts'), subpathsSource('ts'))
  if (consumer.subpaths === true && consumer.tsconfig === undefined)
    writeFileSync(join(dir, 'subpaths.js'), subpathsSource('js'))
  if (consumer.tsconfig !== undefined) {
    const tsconfig = { compilerOptions: { ...TS_BASE, ...consumer.tsconfig }, include: ['*.ts'] }
    writeFileSync(join(dir, 'tsconfig.json'), `${JSON.stringify(tsconfig, null, 2)}\n`)
  }
}

/** Runs tsc on a consumer; with `onlyOwnErrors`, errors located in other packages are listed, not failed. */
async function typeCheck(dir: string, consumer: Consumer): Promise<string> {
  try {
    await runAsync(process.execPath, [tsc, '-p', dir], dir)
    return 'tsc: no errors'
  } catch (error) {
    if (consumer.onlyOwnErrors !== true) throw error
    const lines = (error as Error).message.split('\n').filter((line) => /error TS\d+/.test(line))
    const foreign = lines.filter(
      (line) => line.includes('node_modules/') && !line.includes(`node_modules/${manifest.name}/`),
    )
    if (lines.length === 0 || foreign.length < lines.length) throw error
    return `tsc: no errors in ${manifest.name} or the project; ${foreign.length} in other packages' declarations:\n      ${foreign.join('\n      ')}`
  }
}

async function checkConsumer(dir: string, consumer: Consumer, promised: string): Promise<string> {
  const start = performance.now()
  const steps: string[] = []
  if (consumer.tsconfig !== undefined) steps.push(await typeCheck(dir, consumer))
  if (consumer.run !== undefined) {
    const expected = consumer.expect === 'quick start' ? promised : consumer.expect
    const output = (await runAsync(process.execPath, [consumer.run], dir)).trim()
    if (output !== expected) throw new Error(`node ${consumer.run} printed\n${output}\nexpected\n${expected}`)
    steps.push(`node ${consumer.run}: printed the expected rows`)
  }
  if (consumer.subpaths === true && consumer.tsconfig === undefined) {
    const output = (await runAsync(process.execPath, ['subpaths.js'], dir)).trim()
    if (output !== `${SUBPATHS.length} subpaths`)
      throw new Error(`node subpaths.js printed\n${output}\nexpected ${SUBPATHS.length} subpaths`)
    steps.push(`node subpaths.js: ${output} loaded`)
  }
  return `${steps.join('; ')} (${((performance.now() - start) / 1000).toFixed(1)} s)`
}

/** Checks every consumer, as many at once as there are cores; returns whether all passed. */
async function checkAll(temp: string, quickStart: string, promised: string): Promise<boolean> {
  const queue = [...CONSUMERS]
  let passed = true
  const worker = async (): Promise<void> => {
    for (let consumer = queue.shift(); consumer !== undefined; consumer = queue.shift()) {
      const dir = join(temp, consumer.name)
      writeConsumer(dir, consumer, quickStart)
      try {
        console.log(`  ${consumer.name.padEnd(20)} ok: ${await checkConsumer(dir, consumer, promised)}`)
      } catch (error) {
        passed = false
        console.error(`  ${consumer.name.padEnd(20)} FAILED\n${(error as Error).message}`)
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(availableParallelism(), queue.length) }, worker))
  return passed
}

const started = performance.now()
const temp = mkdtempSync(join(tmpdir(), 'kqp-consumers-'))
let failed = false
try {
  console.log(`consumers in ${temp}`)
  timed('npm pack (prepack builds dist/)', () => run(npm, ['pack', '--pack-destination', temp, '--silent'], root))
  const tarball = readdirSync(temp).find((name) => name.endsWith('.tgz'))
  if (tarball === undefined) throw new Error('npm pack wrote no tarball')
  const tarballPath = join(temp, tarball)

  const publint = binOf('publint', 'publint')
  console.log(
    timed('publint --strict', () => run(process.execPath, [publint, 'run', '--strict', tarballPath], root)).trim(),
  )
  const attw = binOf('@arethetypeswrong/cli', 'attw')
  console.log(
    timed('attw (options in .attw.json)', () => run(process.execPath, [attw, '--no-color', tarballPath], root)).trim(),
  )

  const dependencies = { 'knex-query-params': `file:./${tarball}` }
  writeFileSync(
    join(temp, 'package.json'),
    `${JSON.stringify({ name: 'consumers', private: true, dependencies }, null, 2)}\n`,
  )
  timed('npm install <tarball>', () =>
    run(
      npm,
      ['install', '--prefer-offline', '--legacy-peer-deps', '--no-audit', '--no-fund', '--ignore-scripts'],
      temp,
    ),
  )
  const modules = realpathSync(join(root, 'node_modules'))
  const peers = Object.keys(manifest.peerDependencies ?? {})
  const linked = ['@types/node', ...peers, ...peers.map((name) => `@types/${name}`)].filter((name) =>
    existsSync(join(modules, name)),
  )
  for (const name of linked) {
    mkdirSync(dirname(join(temp, 'node_modules', name)), { recursive: true })
    symlinkSync(join(modules, name), join(temp, 'node_modules', name), 'dir')
  }

  const { source, promised } = readQuickStart()
  const start = performance.now()
  if (!(await checkAll(temp, source, promised))) failed = true
  console.log(`  ${'all consumers'.padEnd(44)} ${((performance.now() - start) / 1000).toFixed(1)} s`)
} catch (error) {
  failed = true
  console.error((error as Error).message)
} finally {
  if (process.env['KEEP_CONSUMERS'] === '1' || failed) console.log(`kept ${temp}`)
  else rmSync(temp, { recursive: true, force: true })
}
console.log(`consumers: ${failed ? 'FAILED' : 'all passed'} in ${((performance.now() - started) / 1000).toFixed(1)} s`)
if (failed) process.exitCode = 1
