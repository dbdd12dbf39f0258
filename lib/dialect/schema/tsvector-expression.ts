/** An expression as PostgreSQL prints it (`pg_get_indexdef`, `pg_get_expr`), casts left out. */
type Node =
  | { kind: 'column'; name: string }
  | { kind: 'literal'; value: string }
  | { kind: 'call'; name: string; args: Node[] }
  | { kind: 'concat'; left: Node; right: Node }

/** What a `tsvector` expression reads: its columns in the order they appear, and its configurations. */
export interface TsvectorReading {
  columns: string[]
  languages: string[]
  /**
   * Whether it is the expression a declared search writes over `columns`: `to_tsvector('<language>'::regconfig,
   * coalesce(a, '') || ' ' || coalesce(b, ''))`, the only one PostgreSQL matches that search's SQL to.
   */
  searchForm: boolean
}

const TOKEN = /\s*(?:('(?:[^']|'')*')|("(?:[^"]|"")*")|(::|\|\||[(),[\]])|([A-Za-z_][A-Za-z0-9_$]*|\d+(?:\.\d+)?))/y

function tokenize(text: string): string[] | undefined {
  const tokens: string[] = []
  TOKEN.lastIndex = 0
  while (TOKEN.lastIndex < text.length) {
    if (/^\s*$/.test(text.slice(TOKEN.lastIndex))) break
    const match = TOKEN.exec(text)
    if (match === null) return undefined
    tokens.push(match[1] ?? match[2] ?? match[3] ?? match[4] ?? '')
  }
  return tokens
}

const isName = (token: string | undefined): boolean => token !== undefined && /^[A-Za-z_"]/.test(token)
const unquote = (token: string): string =>
  token.startsWith('"') ? token.slice(1, -1).replace(/""/g, '"') : token.toLowerCase()

/** A recursive-descent reader of `a || b`, calls, columns, literals and `::type` casts (which it drops). */
class Reader {
  private at = 0
  private readonly tokens: readonly string[]
  constructor(tokens: readonly string[]) {
    this.tokens = tokens
  }

  read(): Node | undefined {
    const node = this.expression()
    return node !== undefined && this.at === this.tokens.length ? node : undefined
  }

  private expression(): Node | undefined {
    let node = this.operand()
    while (node !== undefined && this.tokens[this.at] === '||') {
      this.at++
      const right = this.operand()
      node = right === undefined ? undefined : { kind: 'concat', left: node, right }
    }
    return node
  }

  private operand(): Node | undefined {
    const node = this.primary()
    while (node !== undefined && this.tokens[this.at] === '::') {
      this.at++
      if (!this.skipType()) return undefined
    }
    return node
  }

  private skipType(): boolean {
    if (!isName(this.tokens[this.at])) return false
    while (isName(this.tokens[this.at])) this.at++
    if (this.tokens[this.at] === '(') {
      while (this.at < this.tokens.length && this.tokens[this.at] !== ')') this.at++
      this.at++
    }
    if (this.tokens[this.at] === '[' && this.tokens[this.at + 1] === ']') this.at += 2
    return true
  }

  private primary(): Node | undefined {
    const token = this.tokens[this.at]
    if (token === undefined) return undefined
    this.at++
    if (token === '(') {
      const inner = this.expression()
      if (this.tokens[this.at] !== ')') return undefined
      this.at++
      return inner
    }
    if (token.startsWith("'")) return { kind: 'literal', value: token.slice(1, -1).replace(/''/g, "'") }
    if (/^\d/.test(token)) return { kind: 'literal', value: token }
    if (!isName(token)) return undefined
    if (this.tokens[this.at] !== '(') return { kind: 'column', name: unquote(token) }
    this.at++
    const args: Node[] = []
    while (this.tokens[this.at] !== ')') {
      const arg = this.expression()
      if (arg === undefined) return undefined
      args.push(arg)
      if (this.tokens[this.at] === ',') this.at++
      else if (this.tokens[this.at] !== ')') return undefined
    }
    this.at++
    return { kind: 'call', name: unquote(token), args }
  }
}

/** Functions over text whose result holds the text of their arguments (a separator literal adds none). */
const TEXT_FUNCTIONS = new Set(['coalesce', 'concat', 'concat_ws'])

function textColumns(node: Node): string[] | undefined {
  if (node.kind === 'column') return [node.name]
  if (node.kind === 'literal') return []
  const parts = node.kind === 'concat' ? [node.left, node.right] : TEXT_FUNCTIONS.has(node.name) ? node.args : undefined
  if (parts === undefined) return undefined
  const columns: string[] = []
  for (const part of parts) {
    const read = textColumns(part)
    if (read === undefined) return undefined
    columns.push(...read)
  }
  return columns
}

function tsvectorOf(node: Node): { columns: string[]; languages: string[] } | undefined {
  if (node.kind === 'concat') {
    const left = tsvectorOf(node.left)
    const right = tsvectorOf(node.right)
    if (left === undefined || right === undefined) return undefined
    return { columns: [...left.columns, ...right.columns], languages: [...left.languages, ...right.languages] }
  }
  if (node.kind !== 'call') return undefined
  if (node.name === 'setweight' && node.args[0] !== undefined) return tsvectorOf(node.args[0])
  const [language, text] = node.args
  if (node.name !== 'to_tsvector' || node.args.length !== 2 || language?.kind !== 'literal' || text === undefined)
    return undefined
  const columns = textColumns(text)
  return columns === undefined ? undefined : { columns, languages: [language.value] }
}

/** The columns of `coalesce(a, '') || ' ' || coalesce(b, '')`, nested to the left as `||` is, or `undefined`. */
function searchFormColumns(node: Node): string[] | undefined {
  const coalesced = (part: Node): string | undefined =>
    part.kind === 'call' &&
    part.name === 'coalesce' &&
    part.args.length === 2 &&
    part.args[0]?.kind === 'column' &&
    part.args[1]?.kind === 'literal' &&
    part.args[1].value === ''
      ? part.args[0].name
      : undefined
  const last = coalesced(node)
  if (last !== undefined) return [last]
  if (node.kind !== 'concat' || node.left.kind !== 'concat') return undefined
  const right = coalesced(node.right)
  const space = node.left.right
  const before = searchFormColumns(node.left.left)
  if (right === undefined || space.kind !== 'literal' || space.value !== ' ' || before === undefined) return undefined
  return [...before, right]
}

const unique = (values: readonly string[]): string[] => [...new Set(values)]

/**
 * Reads a `tsvector` expression as PostgreSQL prints it (an expression index's key, a generated column's
 * expression): `to_tsvector('<configuration>'::regconfig, <text>)`, `setweight(…)` and `||` of those, where the
 * text joins columns with `||`, `coalesce`, `concat` and `concat_ws` and literals. `undefined` for anything else
 * (another function, a configuration that is not a literal).
 *
 * @example
 * readTsvector(`to_tsvector('english'::regconfig, (COALESCE(title, ''::character varying)::text || ' '::text) || COALESCE(body, ''::text))`)
 * // { columns: ['title', 'body'], languages: ['english'], searchForm: true }
 */
export function readTsvector(text: string): TsvectorReading | undefined {
  const tokens = tokenize(text)
  const node = tokens === undefined ? undefined : new Reader(tokens).read()
  const read = node === undefined ? undefined : tsvectorOf(node)
  if (node === undefined || read === undefined || read.columns.length === 0) return undefined
  const document = node.kind === 'call' && node.name === 'to_tsvector' ? node.args[1] : undefined
  const formColumns = document === undefined ? undefined : searchFormColumns(document)
  const columns = unique(read.columns)
  return {
    columns,
    languages: unique(read.languages),
    searchForm: formColumns !== undefined && formColumns.length === columns.length,
  }
}
