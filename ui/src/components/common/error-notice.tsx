/** ErrorNotice({ error, title? }): an alert with the API's message (ApiError.message), or nothing when error is null. */
import { ApiError } from '../../api/api-error';

export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : 'Something went wrong.';
}

export function ErrorNotice({ error, title }: { error: unknown; title?: string }) {
  if (error === null || error === undefined) return null;
  return (
    <div className="notice notice-error" role="alert">
      {title ? <strong className="notice-title">{title}</strong> : null}
      <p>{errorMessage(error)}</p>
    </div>
  );
}
