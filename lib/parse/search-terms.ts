/** A double-quoted phrase, or a run of characters other than whitespace. */
const TERM = /"([^"]*)"|(\S+)/gu

/**
 * The terms of a search text: its words, split at whitespace, and its double-quoted phrases kept whole (inner
 * whitespace as one space). An unpaired `"` is part of its word; an empty phrase is no term.
 *
 * @example
 * searchTerms('knex "query builder"  tips')  // ['knex', 'query builder', 'tips']
 */
export function searchTerms(text: string): string[] {
  const terms: string[] = []
  for (const match of text.matchAll(TERM)) {
    const term = match[1] === undefined ? (match[2] ?? '') : match[1].trim().replace(/\s+/gu, ' ')
    if (term !== '') terms.push(term)
  }
  return terms
}
