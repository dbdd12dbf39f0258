/** A response as a fault test inspects it. */
export interface TimedResponse {
  status: number
  contentType: string
  /** The parsed JSON body, or the text when it is not JSON. */
  body: unknown
  text: string
  ms: number
}

/** `GET url`, timed, with the body read; a request that takes longer than `limitMs` is aborted and throws. */
export async function timedGet(url: string, limitMs = 15_000): Promise<TimedResponse> {
  const started = performance.now()
  const response = await fetch(url, { signal: AbortSignal.timeout(limitMs) })
  const text = await response.text()
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {
    // not JSON: keep the text
  }
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    body,
    text,
    ms: performance.now() - started,
  }
}
