/** The whole body every integration answers a non-client error with: nothing of the error itself. */
export const GENERIC_500_BODY = {
  type: 'about:blank',
  title: 'Internal Server Error',
  status: 500,
  detail: 'The server could not answer this request.',
  message: 'The server could not answer this request.',
  code: 'internal_error',
} as const
