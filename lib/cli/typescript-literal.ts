/** A value that {@link typescriptLiteral} prints: what a relation map holds once generated. */
export type LiteralValue =
  | string
  | number
  | boolean
  | readonly LiteralValue[]
  | { readonly [key: string]: LiteralValue | undefined }

const MAX_LINE = 120

/** A string as a single-quoted TypeScript literal. */
export function quoted(text: string): string {
  const escaped = text.replace(/[\\'\n\r\t\u2028\u2029]/g, (character) => {
    const escapes: Record<string, string> = { '\\': '\\\\', "'": "\\'", '\n': '\\n', '\r': '\\r', '\t': '\\t' }
    return escapes[character] ?? `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`
  })
  return `'${escaped}'`
}

const propertyKey = (key: string): string => (/^[A-Za-z_$][\w$]*$/.test(key) ? key : quoted(key))

const isLeaf = (value: LiteralValue): boolean =>
  typeof value !== 'object' || (Array.isArray(value) ? value.every((item) => typeof item !== 'object') : false)

function entriesOf(value: { readonly [key: string]: LiteralValue | undefined }): Array<[string, LiteralValue]> {
  return Object.entries(value).filter((entry): entry is [string, LiteralValue] => entry[1] !== undefined)
}

function inline(value: LiteralValue): string {
  if (typeof value === 'string') return quoted(value)
  if (typeof value !== 'object') return String(value)
  if (Array.isArray(value)) return `[${(value as readonly LiteralValue[]).map(inline).join(', ')}]`
  const entries = entriesOf(value as { readonly [key: string]: LiteralValue | undefined })
  return entries.length === 0
    ? '{}'
    : `{ ${entries.map(([key, item]) => `${propertyKey(key)}: ${inline(item)}`).join(', ')} }`
}

/**
 * Prints a data literal as TypeScript, the same way every time: 2-space indent, single quotes, trailing
 * commas, keys in the object's order. An object whose values are all plain values (or arrays of them) sits
 * on one line when that line fits in 120 characters; any other object takes a line per property.
 * `indent` is the indentation of the line the literal starts on, `lead` how many characters precede it there.
 *
 * @example
 * typescriptLiteral({ users: { columns: { id: 'integer' } } }) // "{\n  users: {\n    columns: { id: 'integer' },\n  },\n}"
 */
export function typescriptLiteral(value: LiteralValue, indent = '', lead = indent.length): string {
  if (typeof value !== 'object' || Array.isArray(value)) return inline(value)
  const entries = entriesOf(value as { readonly [key: string]: LiteralValue | undefined })
  if (entries.length === 0) return '{}'
  const oneLine = inline(value)
  if (entries.every(([, item]) => isLeaf(item)) && lead + oneLine.length + 1 <= MAX_LINE) return oneLine
  const inner = `${indent}  `
  const lines = entries.map(([key, item]) => {
    const start = `${inner}${propertyKey(key)}: `
    return `${start}${typescriptLiteral(item, inner, start.length)},`
  })
  return `{\n${lines.join('\n')}\n${indent}}`
}
