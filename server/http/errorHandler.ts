import type { FastifyError, FastifyInstance } from 'fastify';
import { ApiError, type ErrorCode } from '../../src/protocol/errors';

/** Fastify's own client errors, in the one error shape. */
const FASTIFY_ERRORS: Record<string, [ErrorCode, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: ['BAD_REQUEST', 'The body is not valid JSON'],
  FST_ERR_CTP_EMPTY_JSON_BODY: ['BAD_REQUEST', 'The JSON body is empty'],
  FST_ERR_CTP_BODY_TOO_LARGE: ['PAYLOAD_TOO_LARGE', 'The body is too large'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ['UNSUPPORTED_MEDIA_TYPE', 'Send JSON (Content-Type: application/json)'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ['BAD_REQUEST', 'Content-Length does not match the body'],
  FST_ERR_CTP_EMPTY_TYPE: ['UNSUPPORTED_MEDIA_TYPE', 'The Content-Type is empty'],
  FST_ERR_CTP_INVALID_TYPE: ['UNSUPPORTED_MEDIA_TYPE', 'The Content-Type is invalid'],
  FST_ERR_BAD_URL: ['BAD_REQUEST', 'The URL is malformed'],
  FST_ERR_MAX_PARAM_LENGTH: ['BAD_REQUEST', 'A path parameter is too long'],
};

const STATUS_CODES: Record<number, ErrorCode> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
};

/** Maps any thrown value to an ApiError; unknown failures become 500 INTERNAL (and are logged). */
export function toApiError(error: unknown): { apiError: ApiError; isUnexpected: boolean } {
  if (error instanceof ApiError) return { apiError: error, isUnexpected: false };
  const fastifyError = asFastifyError(error);
  if (fastifyError) {
    const known = fastifyError.code ? FASTIFY_ERRORS[fastifyError.code] : undefined;
    if (known) return { apiError: new ApiError(known[0], known[1]), isUnexpected: false };
    const status = fastifyError.statusCode ?? 500;
    // secure-json-parse's prototype-poisoning rejection and other parser errors arrive as 400s.
    if (status >= 400 && status < 500) {
      const code = STATUS_CODES[status] ?? 'BAD_REQUEST';
      return { apiError: new ApiError(code, status === 400 ? 'Bad request' : code), isUnexpected: false };
    }
  }
  return { apiError: new ApiError('INTERNAL', 'Something went wrong, please try again later.'), isUnexpected: true };
}

function asFastifyError(error: unknown): Pick<FastifyError, 'code' | 'statusCode'> | null {
  if (!(error instanceof Error)) return null;
  const code = 'code' in error && typeof error.code === 'string' ? error.code : undefined;
  const statusCode = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : undefined;
  return code !== undefined || statusCode !== undefined ? { code: code ?? '', statusCode } : null;
}

/** One error handler for the whole app: every failure is answered as `ApiError.toBody()`. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error, req, reply) => {
    const { apiError, isUnexpected } = toApiError(error);
    if (isUnexpected) req.log.error({ err: error }, 'request failed');
    else if (apiError.status >= 500) req.log.warn({ code: apiError.code }, apiError.message);
    return reply.status(apiError.status).type('application/json; charset=utf-8').send(apiError.toBody());
  });
}
