/** What a `create virtual table … using fts5(…)` statement declares. */
export interface Fts5Declaration {
  /** The indexed columns in order (`UNINDEXED` ones left out), unquoted. */
  columns: string[]
  /** The `content` option: the table whose rows it indexes (`undefined`: its own content; `''`: contentless). */
  content: string | undefined
  /** The `content_rowid` option: the content table's column its rowid holds (`undefined`: the rowid). */
  contentRowid: string | undefined
}

/** The arguments between the outer parentheses, split at commas outside quotes and parentheses. */
function splitArguments(text: string): string[] {
  const parts: string[] = []
  let depth = 0
  let quote: string | undefined
  let start = 0
  for (let at = 0; at < text.length; at++) {
    const character = text[at] ?? ''
    if (quote !== undefined) {
      if (character === quote) quote = undefined
    } else if (`'"\`[`.includes(character)) quote = character === '[' ? ']' : character
    else if (character === '(') depth++
    else if (character === ')') depth--
    else if (character === ',' && depth === 0) {
      parts.push(text.slice(start, at).trim())
      start = at + 1
    }
  }
  parts.push(text.slice(start).trim())
  return parts.filter((part) => part !== '')
}

/** An SQL name or string as written (`"a""b"`, `'x'`, `` `c` ``, `[d]`, `e`), unquoted. */
function unquoted(text: string): string {
  const first = text[0] ?? ''
  if (first === '[') return text.slice(1, -1)
  if (`'"\``.includes(first) && text.length >= 2) return text.slice(1, -1).replaceAll(first + first, first)
  return text
}

const NAME = /^("(?:[^"]|"")*"|'(?:[^']|'')*'|`(?:[^`]|``)*`|\[[^\]]*\]|[^\s=]+)/

/**
 * Reads the statement of an FTS5 table as `sqlite_master` keeps it; `undefined` when it is not one.
 *
 * @example
 * readFts5(`CREATE VIRTUAL TABLE posts_fts USING fts5(title, body, content='posts', content_rowid='id')`)
 * // { columns: ['title', 'body'], content: 'posts', contentRowid: 'id' }
 */
export function readFts5(sql: string): Fts5Declaration | undefined {
  const match = /^\s*create\s+virtual\s+table\s+.*?\busing\s+fts5\s*\(([\s\S]*)\)\s*;?\s*$/i.exec(sql)
  if (match === null) return undefined
  const declaration: Fts5Declaration = { columns: [], content: undefined, contentRowid: undefined }
  for (const part of splitArguments(match[1] ?? '')) {
    const option = /^([A-Za-z_]+)\s*=\s*([\s\S]*)$/.exec(part)
    if (option !== null) {
      const value = unquoted((option[2] ?? '').trim())
      const key = (option[1] ?? '').toLowerCase()
      if (key === 'content') declaration.content = value
      if (key === 'content_rowid') declaration.contentRowid = value
      continue
    }
    const name = NAME.exec(part)?.[1]
    if (name === undefined) continue
    if (/\bunindexed\b/i.test(part.slice(name.length))) continue
    declaration.columns.push(unquoted(name))
  }
  return declaration
}
