import { pluralWord, singularWord } from './inflection.ts'
import { joinWords, nameWords } from './name-words.ts'
import type { Naming } from './options.ts'

/** The words of `identifier` with its last word made singular or plural: `order_items` → `['order', 'item']`. */
export function inflectedWords(identifier: string, number: 'singular' | 'plural'): string[] {
  const words = nameWords(identifier)
  const last = words.at(-1)
  if (last === undefined) return words
  return [...words.slice(0, -1), number === 'singular' ? singularWord(last) : pluralWord(last)]
}

/**
 * The name a `belongsTo` through `column` starts from: the column without its `_id`/`Id`/`ID` suffix
 * (`author_id` → `author`), or `undefined` when it has none.
 *
 * @example
 * foreignKeyStem('ArtistId') // ['Artist']
 */
export function foreignKeyStem(column: string): string[] | undefined {
  const words = nameWords(column)
  return words.length > 1 && words.at(-1)?.toLowerCase() === 'id' ? words.slice(0, -1) : undefined
}

/**
 * `words` + `by`/`via` + the words of `identifier`, the connector capitalised when the words are (`Albums`, `By`,
 * `Artist`, `Id`).
 */
export function qualifiedWords(words: readonly string[], connector: 'by' | 'via', identifier: string): string[] {
  const capital = /^[A-Z]/.test(words[0] ?? '')
  return [
    ...words,
    capital ? `${connector[0]?.toUpperCase() ?? ''}${connector.slice(1)}` : connector,
    ...nameWords(identifier),
  ]
}

/**
 * Picks the first of `candidates` (word lists, spelled in `naming` style) that `taken` does not hold, else
 * the last one with a number (`_2`, `_3`…); adds it to `taken`. `preferred` is the first candidate's name.
 *
 * @example
 * pickName([['user'], qualifiedWords(['user'], 'by', 'owner_id')], new Set(['user']), 'snake') // { name: 'user_by_owner_id', preferred: 'user' }
 */
export function pickName(
  candidates: ReadonlyArray<readonly string[]>,
  taken: Set<string>,
  naming: Naming,
): { name: string; preferred: string } {
  const names = candidates.map((words) => joinWords(words, naming))
  let name = names.find((candidate) => !taken.has(candidate))
  if (name === undefined) {
    const last = candidates.at(-1) ?? []
    for (let suffix = 2; name === undefined || taken.has(name); suffix++)
      name = joinWords([...last, String(suffix)], naming)
  }
  taken.add(name)
  return { name, preferred: names[0] ?? name }
}
