/**
 * A copy of `text` that shares no memory with it. V8 makes a slice of 13 characters or more a view into the
 * whole string, so a remembered slice of a request body would keep the whole body alive; a cache keyed by
 * client text keeps this copy instead. Shorter strings are copied by V8 already.
 */
export function copyText(text: string): string {
  return text.length < 13 ? text : (JSON.parse(JSON.stringify(text)) as string)
}
