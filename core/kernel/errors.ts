/** Domain errors with stable codes; only the HTTP layer maps a code to a status (see core/http/error-mapper.ts). */

export const errorCodes = [
  'bad_request',
  'validation_failed',
  'unauthorized',
  'token_expired',
  'forbidden',
  'insufficient_scope',
  'workspace_suspended',
  'plan_no_api_access',
  'plan_limit_api_tokens',
  'plan_limit_machines',
  'plan_limit_tests',
  'plan_limit_schedules',
  'not_found',
  'conflict',
  'last_owner',
  'payload_too_large',
  'too_many_pending_tasks',
  'ai_budget_exhausted',
  'too_many_failed_lookups',
  'unsupported_media_type',
  'method_not_allowed',
  'internal_error',
  'service_unavailable',
  'bad_gateway',
  'length_required',
  'upgrade_required',
] as const;

export type ErrorCode = (typeof errorCodes)[number];

/**
 * Marks a DomainError of any copy of this module: a plugin built against the published kit brings its own copy of the
 * class, so `instanceof` compares this brand (a registry symbol, the same in every copy) rather than the prototype.
 */
const domainErrorBrand = Symbol.for('loadplane.DomainError');

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra machine-readable detail, e.g. the offending field. */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'DomainError';
    Object.defineProperty(this, domainErrorBrand, { value: true });
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    // A subclass, should one appear, keeps the ordinary prototype check.
    if (this !== DomainError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[domainErrorBrand] === true;
  }
}

export const notFound = (what: string) => new DomainError('not_found', `${what} not found`);
export const badRequest = (message: string, details?: Record<string, unknown>) =>
  new DomainError('bad_request', message, details);
export const conflict = (message: string) => new DomainError('conflict', message);
export const unauthorized = (message = 'missing or invalid bearer token') => new DomainError('unauthorized', message);
export const forbidden = (message = 'insufficient rights') => new DomainError('forbidden', message);

/** Raised at boot for a broken plugin set: names the plugins involved. */
export class KernelBootError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KernelBootError';
  }
}
