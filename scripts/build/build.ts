/**
 * `npm run build` (also run by `prepack`): compiles `lib/` to `dist/` with `tsconfig.build.json`
 * (ES2022 JavaScript, `.d.ts` and declaration maps), then gives the declarations `.js` import paths.
 *
 * tsc rewrites `./x.ts` to `./x.js` in the JavaScript it emits but leaves `./x.ts` in the `.d.ts`
 * (microsoft/TypeScript#61037). TypeScript itself resolves those, but editors and other tools that read
 * declarations expect the path of the JavaScript file, so the build rewrites them too.
 */
import { execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { rewriteDeclarationImports } from './rewrite-declaration-imports.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))
const dist = `${root}dist`

rmSync(dist, { recursive: true, force: true })
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')
execFileSync(process.execPath, [tsc, '-p', `${root}tsconfig.build.json`], { stdio: 'inherit' })

let rewritten = 0
for (const entry of readdirSync(dist, { recursive: true, encoding: 'utf8' })) {
  if (!entry.endsWith('.d.ts')) continue
  const file = `${dist}/${entry}`
  const before = readFileSync(file, 'utf8')
  const after = rewriteDeclarationImports(before)
  if (after !== before) {
    writeFileSync(file, after)
    rewritten++
  }
}
console.log(`dist/: built, ${rewritten} declaration files given .js import paths`)
