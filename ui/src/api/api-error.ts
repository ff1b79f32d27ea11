/** ApiError: an error answer of the API ({error, message}), whose message is shown to users as is. */

export class ApiError extends Error {
  /** HTTP status (0 when the request never reached the service). */
  status: number;
  /** The machine-readable code of the body's `error` field (e.g. `not_found`, `bad_request`). */
  code: string;

  constructor(status: number, code: string, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
  }

  /** Builds the error from a status and a parsed body that should be `{error, message}`. */
  static fromBody(status: number, body: unknown): ApiError {
    if (body && typeof body === 'object') {
      const { error, message } = body as { error?: unknown; message?: unknown };
      if (typeof message === 'string' && message) {
        return new ApiError(status, typeof error === 'string' ? error : 'error', message);
      }
      if (typeof error === 'string' && error) return new ApiError(status, error, error);
    }
    if (typeof body === 'string' && body.trim()) return new ApiError(status, 'error', body.trim().slice(0, 500));
    return new ApiError(status, 'error', `The service answered ${status || 'nothing'}.`);
  }

  /** Reads an error answer's body and builds the error from it. */
  static async fromResponse(response: Response): Promise<ApiError> {
    const text = await response.text().catch(() => '');
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return ApiError.fromBody(response.status, body);
  }
}

/** Whether an error is a 4xx answer of the API (not worth retrying). */
export function isClientError(error: unknown): boolean {
  return error instanceof ApiError && error.status >= 400 && error.status < 500;
}
