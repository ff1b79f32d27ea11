/** Maps domain error codes to HTTP statuses in one exhaustive switch; every error body is the spec's {error, message}. */
import { DomainError, type ErrorCode } from '../kernel/errors.ts';

export interface ErrorBody {
  error: string;
  message: string;
}

export function statusOf(code: ErrorCode): number {
  switch (code) {
    case 'bad_request':
    case 'validation_failed':
      return 400;
    case 'unauthorized':
    case 'token_expired':
      return 401;
    case 'forbidden':
    case 'insufficient_scope':
    case 'workspace_suspended':
    case 'plan_no_api_access':
    case 'plan_limit_api_tokens':
    case 'plan_limit_machines':
    case 'plan_limit_tests':
    case 'plan_limit_schedules':
      return 403;
    case 'not_found':
      return 404;
    case 'method_not_allowed':
      return 405;
    case 'conflict':
    case 'last_owner':
      return 409;
    case 'length_required':
      return 411;
    case 'payload_too_large':
      return 413;
    case 'unsupported_media_type':
      return 415;
    case 'upgrade_required':
      return 426;
    case 'too_many_pending_tasks':
    case 'too_many_failed_lookups':
    case 'ai_budget_exhausted':
      return 429;
    case 'internal_error':
      return 500;
    case 'bad_gateway':
      return 502;
    case 'service_unavailable':
      return 503;
  }
}

export function errorResponse(error: DomainError, extraHeaders: Record<string, string> = {}): Response {
  const body: ErrorBody = { error: error.code, message: error.message };
  const headers: Record<string, string> = { 'content-type': 'application/json', ...extraHeaders };
  if (error.code === 'unauthorized' || error.code === 'token_expired') {
    headers['www-authenticate'] =
      error.code === 'token_expired' ? 'Bearer error="invalid_token", error_description="token expired"' : 'Bearer';
  }
  // A limit that lifts at a known time says when (RFC 9110 Retry-After, in seconds).
  const retryAfter = error.details?.retryAfterSeconds;
  if (typeof retryAfter === 'number') headers['retry-after'] = String(retryAfter);
  return new Response(JSON.stringify(body), { status: statusOf(error.code), headers });
}

export const isDomainError = (error: unknown): error is DomainError => error instanceof DomainError;
