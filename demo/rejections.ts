import type { FastifyRequest } from 'fastify'

/** Why a request was answered 4xx, for its log line: a `QueryParamsError`'s `code` and `param`, or a limit's code. */
export interface Rejection {
  code: string
  param?: string
}

const rejections = new WeakMap<FastifyRequest, Rejection>()

/** Records why `request` is rejected, for {@link rejectionOf}. */
export function rememberRejection(request: FastifyRequest, rejection: Rejection): void {
  rejections.set(request, rejection)
}

/** Why `request` was rejected, when the error handler said so. */
export function rejectionOf(request: FastifyRequest): Rejection | undefined {
  return rejections.get(request)
}
