/**
 * Turns a form body or a framework's query object back into `key=value` text, so that it parses exactly
 * like a query string: text is kept as sent, a Buffer is read as UTF-8, `URLSearchParams` is serialised,
 * and an object is flattened into bracket keys (`{ wheres: [{ column: 'id' }] }` → `wheres[0][column]=id`;
 * an object whose keys already carry brackets is taken pair by pair, a list meaning a repeated key).
 * `null` becomes a key without `=`; `undefined` is left out.
 */
export function encodeForm(body: unknown): string {
  if (body === undefined || body === null) return ''
  if (typeof body === 'string') return body.replace(/^\?/, '')
  if (body instanceof Uint8Array) return new TextDecoder().decode(body)
  if (body instanceof URLSearchParams) return body.toString()
  if (typeof body !== 'object') return ''
  const entries = Object.entries(body)
  const pairs: string[] = []
  if (entries.some(([key]) => key.includes('['))) {
    for (const [key, value] of entries) {
      for (const item of Array.isArray(value) ? (value as unknown[]) : [value]) push(pairs, key, item)
    }
  } else {
    for (const [key, value] of entries) flatten(pairs, key, value)
  }
  return pairs.join('&')
}

function flatten(pairs: string[], key: string, value: unknown): void {
  if (Array.isArray(value)) {
    value.forEach((item: unknown, index) => flatten(pairs, `${key}[${index}]`, item))
  } else if (typeof value === 'object' && value !== null && !(value instanceof Date)) {
    for (const [name, item] of Object.entries(value)) flatten(pairs, `${key}[${name}]`, item)
  } else {
    push(pairs, key, value)
  }
}

function push(pairs: string[], key: string, value: unknown): void {
  if (value === undefined) return
  const name = encodeURIComponent(key)
  if (value === null) pairs.push(name)
  else pairs.push(`${name}=${encodeURIComponent(value instanceof Date ? value.toISOString() : String(value))}`)
}
