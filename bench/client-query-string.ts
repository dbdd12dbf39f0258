import qs from 'qs'

/**
 * A request object encoded exactly as the reference client (`@upfrontjs/framework` 0.19) encodes it:
 * `qs.stringify` with bracket indices, values percent-encoded, keys left as they are, `null` as a key
 * without `=`.
 */
export function clientQueryString(params: Record<string, unknown>): string {
  return qs.stringify(params, {
    arrayFormat: 'indices',
    strictNullHandling: true,
    indices: true,
    encodeValuesOnly: true,
    charset: 'utf-8',
  })
}
