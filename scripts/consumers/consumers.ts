/** One throwaway consumer project: its `package.json` type, tsconfig options, files and what to run. */
export interface Consumer {
  name: string
  /** The project's `package.json` `type`. */
  type: 'module' | 'commonjs'
  /** Compiler options for a TypeScript consumer, merged over {@link TS_BASE}; none for a JavaScript one. */
  tsconfig?: Record<string, unknown>
  /** Files copied from `scripts/consumers/files/` (the quick start is written as `quickstart.ts` or `.js`). */
  files: string[]
  /** Writes the README quick start: as TypeScript, as JavaScript, or not at all. */
  quickStart: 'ts' | 'js' | 'none'
  /** The file run with plain `node` after any compile, relative to the project; its output is checked. */
  run?: string
  /** The exact line `run` must print. `'quick start'` means the line the README promises. */
  expect?: string
  /** Also writes `subpaths.ts` (TypeScript) or `subpaths.js` (run after `run`), importing every subpath export. */
  subpaths?: boolean
  /**
   * Passes when tsc's only errors are in other packages' declarations (the frameworks' `@types` do not all
   * compile with `skipLibCheck: false`); any error in this package's declarations or the project still fails.
   */
  onlyOwnErrors?: boolean
}

/** What every TypeScript consumer sets: the strictest library check, whatever else varies. */
export const TS_BASE = {
  skipLibCheck: false,
  types: ['node'],
  outDir: 'out',
  rootDir: '.',
} as const

const nodenext = { module: 'nodenext', moduleResolution: 'nodenext', target: 'ES2022', strict: true }

/**
 * The consumer matrix of `npm run test:consumers`: plain Node (ESM and `require`), TypeScript under each
 * module resolution a Node or bundler project uses, and the compiler settings that broke before
 * (`strict` off, an ES2019 target).
 */
export const CONSUMERS: Consumer[] = [
  {
    name: 'esm-js',
    type: 'module',
    files: [],
    quickStart: 'js',
    run: 'quickstart.js',
    expect: 'quick start',
    subpaths: true,
  },
  {
    name: 'cjs-require',
    type: 'commonjs',
    files: ['require.cjs'],
    quickStart: 'none',
    run: 'require.cjs',
    expect: '[{"id":2,"name":"Linus"}]',
  },
  {
    name: 'ts-nodenext',
    type: 'module',
    tsconfig: nodenext,
    files: ['api.ts'],
    quickStart: 'ts',
    run: 'out/quickstart.js',
    expect: 'quick start',
  },
  {
    name: 'ts-subpaths',
    type: 'module',
    tsconfig: { ...nodenext, noEmit: true },
    files: [],
    quickStart: 'none',
    subpaths: true,
    onlyOwnErrors: true,
  },
  {
    name: 'ts-bundler',
    type: 'module',
    tsconfig: { module: 'preserve', moduleResolution: 'bundler', target: 'ES2022', strict: true, noEmit: true },
    files: ['api.ts'],
    quickStart: 'ts',
  },
  {
    name: 'ts-node16',
    type: 'module',
    tsconfig: { module: 'node16', moduleResolution: 'node16', target: 'ES2022', strict: true, noEmit: true },
    files: ['api.ts'],
    quickStart: 'ts',
  },
  {
    name: 'ts-strict-off',
    type: 'module',
    tsconfig: { ...nodenext, strict: false, noEmit: true },
    files: ['api.ts'],
    quickStart: 'ts',
  },
  {
    name: 'ts-es2019',
    type: 'module',
    tsconfig: { ...nodenext, target: 'ES2019', noEmit: true },
    files: ['api.ts'],
    quickStart: 'ts',
  },
  {
    name: 'ts-exact-optional',
    type: 'module',
    tsconfig: { ...nodenext, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, noEmit: true },
    files: ['api.ts'],
    quickStart: 'ts',
  },
  {
    name: 'ts-nodenext-cjs',
    type: 'commonjs',
    tsconfig: { ...nodenext, noEmit: true },
    files: ['api.ts'],
    quickStart: 'none',
  },
]
