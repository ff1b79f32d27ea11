/** Schemas shared by every route: the error body, ids and timestamps. */
import { t } from 'elysia';

export const ErrorBody = t.Object(
  {
    error: t.String({ description: 'machine-readable code, e.g. not_found' }),
    message: t.String({ description: 'human-readable explanation' }),
  },
  { $id: '#/components/schemas/Error', title: 'Error' },
);

export const errorResponses = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  409: ErrorBody,
  413: ErrorBody,
  429: ErrorBody,
} as const;

export const IdParams = t.Object({ id: t.String({ description: 'the resource id (UUID)' }) });

export const Timestamp = t.String({ format: 'date-time', description: 'ISO 8601 UTC, ending in Z' });

export const bearerSecurity = [{ bearerAuth: [] }];
