import ts from 'typescript'

/**
 * The TypeScript errors of the given files alone, compiled together with `options`: syntax, semantics and the
 * options' own problems. What the files import (this repository's `lib/`, knex's and Node's types) is read to type
 * them but not checked itself (`npm run typecheck` does that), and the previous program of the same options is
 * reused, so unchanged sources are not parsed again: one check costs a fraction of a whole-project compile.
 */
export function compileErrors(files: readonly string[], options: ts.CompilerOptions): string[] {
  const key = JSON.stringify(options)
  const program = ts.createProgram([...files], options, undefined, previous.get(key))
  previous.set(key, program)
  const diagnostics = [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...files.flatMap((file) => {
      const source = program.getSourceFile(file)
      if (source === undefined) throw new Error(`${file} is not part of the program`)
      return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]
    }),
  ]
  return diagnostics.map((diagnostic) => {
    const where =
      diagnostic.file === undefined
        ? ''
        : `${diagnostic.file.fileName}(${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1}): `
    return `${where}${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`
  })
}

const previous = new Map<string, ts.Program>()
