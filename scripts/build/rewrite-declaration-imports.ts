const RELATIVE_TS_SPECIFIER = /((?:\bfrom\s*|\bimport\s*\(\s*)(['"]))(\.{1,2}\/[^'"]*?)\.([cm]?)ts\2/g

/**
 * Rewrites relative `.ts` / `.mts` / `.cts` module specifiers in declaration text to the `.js` / `.mjs` /
 * `.cjs` files the build emits, in `from '…'` clauses and `import('…')` types. Anything else is kept.
 *
 * @example
 * rewriteDeclarationImports("export { a } from './a.ts';") // "export { a } from './a.js';"
 */
export function rewriteDeclarationImports(declaration: string): string {
  return declaration.replace(
    RELATIVE_TS_SPECIFIER,
    (_match, prefix: string, quote: string, path: string, kind: string) => `${prefix}${path}.${kind}js${quote}`,
  )
}
