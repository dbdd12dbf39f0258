import { request } from 'node:http'

/** A response as the tests read it. */
export interface SentResponse {
  status: number
  contentType: string
  text: string
}

/** Sends one request with `node:http` (which, unlike `fetch`, can put a body on a GET). */
export function send(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<SentResponse> {
  return new Promise((resolve, reject) => {
    const headers = { ...options.headers }
    if (options.body !== undefined) headers['content-length'] = String(Buffer.byteLength(options.body))
    const outgoing = request(url, { method: options.method ?? 'GET', headers }, (response) => {
      let text = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => (text += chunk))
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, contentType: response.headers['content-type'] ?? '', text }),
      )
      response.on('error', reject)
    })
    outgoing.on('error', reject)
    outgoing.end(options.body)
  })
}
