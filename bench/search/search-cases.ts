import type { BenchDialect } from '../data/bench-servers.ts'
import type { ExpertForm, ScaleCase } from '../scale/scale-cases.ts'
import { containsSearchMap, fulltextSearchMap } from './search-relation-map.ts'
import { SEARCH_WORDS } from './search-dataset.ts'

const COLUMNS = 'p.id, p.user_id, p.title, p.body'
const PAGE = 'order by p.id desc limit 20'
const { common, rare, second, author } = SEARCH_WORDS

function form(name: string, why: string, sql: string, bindings: Array<string | number> = []): ExpertForm {
  return { name, why, sql: sql.replace(/\s+/g, ' ').trim(), bindings }
}

const page = (search: string): Record<string, unknown> => ({
  search,
  orders: [{ column: 'id', direction: 'desc' }],
  limit: 20,
  page: 1,
})

/** The expert's `like` on each database: `ilike` (PostgreSQL), a `_ci` collation's plain `like` (MariaDB), SQLite's ASCII-folding `like`. */
function likeOf(dialect: BenchDialect, column: string): string {
  if (dialect === 'postgres') return `${column} ilike ?`
  return dialect === 'sqlite' ? `${column} like ? escape '\\'` : `${column} like ?`
}

/** The expert's contains search for `words` over title, body and the author's name, as an `or` per word and as a `union` of keys. */
function containsForms(dialect: BenchDialect, words: readonly string[]): ExpertForm[] {
  const anyColumn = `(${likeOf(dialect, 'p.title')} or ${likeOf(dialect, 'p.body')} or p.user_id in (select u.id from users u where ${likeOf(dialect, 'u.name')}))`
  const patterns = words.flatMap((word) => [`%${word}%`, `%${word}%`, `%${word}%`])
  const forms = [
    form(
      'or per word',
      'each word tested on the row, the author through a key list; stops after 20 rows in key order',
      `select ${COLUMNS} from posts p where ${words.map(() => anyColumn).join(' and ')} ${PAGE}`,
      patterns,
    ),
  ]
  if (dialect === 'postgres' && words.length === 1) {
    const [word] = words
    const keys = `select id from posts where title ilike ? union select id from posts where body ilike ? union select q.id from posts q join users u on u.id = q.user_id where u.name ilike ?`
    forms.push(
      form(
        'union of trigram reads',
        'each column read through its pg_trgm index, the keys united, then sorted',
        `select ${COLUMNS} from posts p where p.id in (${keys}) ${PAGE}`,
        [`%${word}%`, `%${word}%`, `%${word}%`],
      ),
    )
  }
  return forms
}

/** The expert's full-text search for `words`, newest key first or by relevance. */
function fulltextForms(dialect: BenchDialect, words: readonly string[], byRelevance: boolean): ExpertForm[] {
  if (dialect === 'postgres') {
    const document = `to_tsvector('simple'::regconfig, coalesce(p.title, '') || ' ' || coalesce(p.body, ''))`
    const order = byRelevance
      ? `order by ts_rank(${document}, plainto_tsquery('simple'::regconfig, ?)) desc, p.id desc limit 20`
      : PAGE
    const text = words.join(' ')
    return [
      form(
        'GIN expression index',
        'the bitmap of the GIN index of the document expression, then the page',
        `select ${COLUMNS} from posts p where ${document} @@ plainto_tsquery('simple'::regconfig, ?) ${order}`,
        byRelevance ? [text, text] : [text],
      ),
    ]
  }
  if (dialect === 'mysql') {
    const match = 'match (p.title, p.body) against (? in boolean mode)'
    const text = words.map((word) => `+${word}`).join(' ')
    const order = byRelevance ? `order by ${match} desc, p.id desc limit 20` : PAGE
    return [
      form(
        'FULLTEXT index',
        'the FULLTEXT index lists the matching keys, then the page',
        `select ${COLUMNS} from posts p where ${match} ${order}`,
        byRelevance ? [text, text] : [text],
      ),
    ]
  }
  const text = words.map((word) => `"${word}"`).join(' ')
  const order = byRelevance ? 'order by f.rank, p.id desc limit 20' : 'order by f.rowid desc limit 20'
  return [
    form(
      'FTS5 join',
      'the FTS5 table lists the matching rowids, each joined to its post by key',
      `select ${COLUMNS} from posts_fts f join posts p on p.id = f.rowid where posts_fts match ? ${order}`,
      [text],
    ),
  ]
}

const contains = (name: string, words: readonly string[]): ScaleCase => ({
  name: `contains: ${name}`,
  request: page(words.join(' ')),
  map: containsSearchMap,
  expert: (dialect) => containsForms(dialect, words),
})

const fulltext = (name: string, words: readonly string[], byRelevance = false): ScaleCase => ({
  name: `fulltext: ${name}`,
  request: byRelevance
    ? { search: words.join(' '), orders: [{ column: 'relevance', direction: 'desc' }], limit: 20, page: 1 }
    : page(words.join(' ')),
  map: fulltextSearchMap,
  expert: (dialect) => fulltextForms(dialect, words, byRelevance),
})

/** Figure 14's cases (issue 33, point 6): a common word, a rare word, two words, a word of the author's name; both modes. */
export const SEARCH_CASES: readonly ScaleCase[] = [
  contains(`common word '${common}' (10% of posts)`, [common]),
  contains(`rare word '${rare}' (0.01%)`, [rare]),
  contains(`two words '${common} ${second}' (1.4%)`, [common, second]),
  contains(`word of the author's name '${author}' (0.1%)`, [author]),
  fulltext(`common word '${common}'`, [common]),
  fulltext(`rare word '${rare}'`, [rare]),
  fulltext(`two words '${common} ${second}'`, [common, second]),
  fulltext(`rare word '${rare}' by relevance`, [rare], true),
]
