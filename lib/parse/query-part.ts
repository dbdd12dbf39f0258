const URL_WITH_SCHEME = /^[a-z][a-z\d+.-]*:\/\//i

/** The query part of the input: after a leading `?`; for a path or URL, between its `?` and any `#`. */
export function queryOf(input: string): string {
  const first = input.charCodeAt(0)
  if (first === 63) return input.slice(1)
  if (first !== 47 && !URL_WITH_SCHEME.test(input)) return input
  const question = input.indexOf('?')
  if (question === -1) return ''
  const hash = input.indexOf('#', question)
  return hash === -1 ? input.slice(question + 1) : input.slice(question + 1, hash)
}
