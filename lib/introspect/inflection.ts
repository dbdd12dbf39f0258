const IRREGULAR: ReadonlyArray<readonly [singular: string, plural: string]> = [
  ['person', 'people'],
  ['child', 'children'],
  ['man', 'men'],
  ['woman', 'women'],
  ['mouse', 'mice'],
  ['goose', 'geese'],
  ['foot', 'feet'],
  ['tooth', 'teeth'],
  ['ox', 'oxen'],
  ['criterion', 'criteria'],
  ['datum', 'data'],
  ['medium', 'media'],
  ['index', 'indices'],
  ['matrix', 'matrices'],
  ['vertex', 'vertices'],
  ['analysis', 'analyses'],
  ['axis', 'axes'],
  ['crisis', 'crises'],
  ['leaf', 'leaves'],
  ['life', 'lives'],
  ['knife', 'knives'],
  ['wife', 'wives'],
  ['half', 'halves'],
  ['shelf', 'shelves'],
  ['quiz', 'quizzes'],
  ['status', 'statuses'],
  ['bus', 'buses'],
  ['alias', 'aliases'],
  ['campus', 'campuses'],
  ['virus', 'viruses'],
  ['movie', 'movies'],
  ['cookie', 'cookies'],
  ['tie', 'ties'],
]

const UNCOUNTABLE = new Set([
  'equipment',
  'information',
  'rice',
  'money',
  'species',
  'series',
  'fish',
  'sheep',
  'deer',
  'news',
  'metadata',
  'feedback',
  'staff',
  'software',
  'hardware',
  'audio',
  'media',
  'data',
  'music',
  'settings',
  'analytics',
])

const TO_PLURAL = new Map(IRREGULAR.map(([one, many]) => [one, many]))
const TO_SINGULAR = new Map(IRREGULAR.map(([one, many]) => [many, one]))

function keepCase(source: string, result: string): string {
  if (source.length > 1 && source === source.toUpperCase()) return result.toUpperCase()
  const first = source[0] ?? ''
  return first !== first.toLowerCase() ? (result[0] ?? '').toUpperCase() + result.slice(1) : result
}

/**
 * The singular of one English word (`categories` → `category`, `people` → `person`, `statuses` → `status`),
 * keeping its capitalisation; a word already singular, or uncountable, comes back unchanged. A small rule
 * set for table names, not a full inflector.
 *
 * @example
 * singularWord('Addresses') // 'Address'
 */
export function singularWord(word: string): string {
  const lower = word.toLowerCase()
  if (UNCOUNTABLE.has(lower) || TO_PLURAL.has(lower)) return word
  const irregular = TO_SINGULAR.get(lower)
  if (irregular !== undefined) return keepCase(word, irregular)
  const rules: ReadonlyArray<readonly [RegExp, string]> = [
    [/([^aeiou])ies$/, '$1y'],
    [/(ss|x|z|ch|sh)es$/, '$1'],
    [/(ss|us|is|ous)$/, '$1'],
    [/s$/, ''],
  ]
  for (const [pattern, replacement] of rules) {
    if (pattern.test(lower)) return keepCase(word, lower.replace(pattern, replacement))
  }
  return word
}

/**
 * The plural of one English word (`category` → `categories`, `person` → `people`, `box` → `boxes`), keeping
 * its capitalisation; a word that is already plural (by {@link singularWord}) or uncountable comes back
 * unchanged.
 *
 * @example
 * pluralWord('Album') // 'Albums'
 */
export function pluralWord(word: string): string {
  const lower = word.toLowerCase()
  if (UNCOUNTABLE.has(lower) || TO_SINGULAR.has(lower)) return word
  const irregular = TO_PLURAL.get(lower)
  if (irregular !== undefined) return keepCase(word, irregular)
  if (singularWord(word) !== word) return word
  const rules: ReadonlyArray<readonly [RegExp, string]> = [
    [/([^aeiou])y$/, '$1ies'],
    [/(ss|x|z|ch|sh|us)$/, '$1es'],
    [/$/, 's'],
  ]
  for (const [pattern, replacement] of rules) {
    if (pattern.test(lower)) return keepCase(word, lower.replace(pattern, replacement))
  }
  return word
}
