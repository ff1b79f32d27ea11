/**
 * DeliveryHistory({ webhook }): a webhook's deliveries, newest first, paged: event, state, every attempt (time, status,
 * duration, error, the answer's excerpt), the next retry, and redeliver for a finished one. Polls while one waits.
 */
import { useId } from 'react';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, unwrapPage } from '../../../api/client';
import { ErrorNotice } from '../../../components/common/error-notice';
import { formatDateTime, formatRelativeTime } from '../../../components/common/formatters';
import { Loading } from '../../../components/common/loading';
import type { Webhook, WebhookDelivery } from '../settings-types';
import { attemptSummary, canRedeliver, deliveryTone, hasWaiting } from './webhook-model';

export const deliveriesKey = (webhookId: string) => ['webhooks', webhookId, 'deliveries'] as const;

function Time({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={formatDateTime(iso)}>
      {formatRelativeTime(iso)}
    </time>
  );
}

function Attempts({ delivery }: { delivery: WebhookDelivery }) {
  if (delivery.attempts.length === 0) return <span className="muted">no attempt yet</span>;
  return (
    <ol className="attempts" reversed aria-label={`Attempts of delivery ${delivery.id}`}>
      {delivery.attempts.map((attempt, index) => (
        <li key={`${attempt.attempted_at}-${index}`}>
          <span className={`badge badge-${attempt.outcome === 'success' ? 'success' : 'danger'}`}>{attempt.outcome}</span>{' '}
          {attemptSummary(attempt)}, <Time iso={attempt.attempted_at} />
          {attempt.response_excerpt ? (
            <details>
              <summary>Response</summary>
              <pre>
                <code>{attempt.response_excerpt}</code>
              </pre>
            </details>
          ) : null}
        </li>
      ))}
    </ol>
  );
}

export function DeliveryHistory({ webhook }: { webhook: Webhook }) {
  const id = useId();
  const queryClient = useQueryClient();
  const deliveries = useInfiniteQuery({
    queryKey: deliveriesKey(webhook.id),
    initialPageParam: '',
    queryFn: ({ pageParam }) =>
      unwrapPage(
        api.GET('/api/v1/webhooks/{id}/deliveries', { params: { path: { id: webhook.id }, query: { limit: 25, cursor: pageParam || undefined } } }),
      ),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval: (query) => (query.state.data?.pages.some((page) => hasWaiting(page.items)) ? 3000 : 15_000),
  });
  const redeliver = useMutation({
    mutationFn: (delivery: WebhookDelivery) =>
      unwrap(
        api.POST('/api/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver', {
          params: { path: { id: webhook.id, deliveryId: delivery.id } },
          body: {},
        }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: deliveriesKey(webhook.id) }),
  });
  const list = deliveries.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <section className="deliveries" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Deliveries to {webhook.url}</h2>
      <p className="field-hint">
        A failed attempt is retried after 1 min, 5 min, 30 min and 2 h; after 5 attempts the delivery is marked failed. The list refreshes on its own.
      </p>
      <ErrorNotice error={redeliver.error} title="Not sent again" />
      {deliveries.isPending ? (
        <Loading label="Loading deliveries…" />
      ) : !deliveries.data ? (
        <ErrorNotice error={deliveries.error} />
      ) : list.length === 0 ? (
        <p className="muted">No deliveries yet. Use “Send test” to send a test.ping now, or start a run of a test.</p>
      ) : (
        <div className="table-wrap">
          <table>
            <caption>Deliveries of this webhook, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">State</th>
                <th scope="col">Attempts</th>
                <th scope="col">Next attempt</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((delivery) => (
                <tr key={delivery.id}>
                  <th scope="row">
                    <code>{delivery.event}</code>
                    <div className="muted">
                      <Time iso={delivery.created_at} />
                      {delivery.redelivery_of ? ' (sent again)' : ''}
                    </div>
                    <details>
                      <summary>Envelope</summary>
                      <pre>
                        <code>{JSON.stringify(delivery.envelope, null, 2)}</code>
                      </pre>
                    </details>
                  </th>
                  <td>
                    <span className={`badge badge-${deliveryTone(delivery.state)}`}>{delivery.state}</span>
                    <div className="muted">
                      {delivery.attempt_count} of 5 {delivery.attempt_count === 1 ? 'attempt' : 'attempts'}
                    </div>
                  </td>
                  <td>
                    <Attempts delivery={delivery} />
                  </td>
                  <td>{delivery.next_attempt_at ? <Time iso={delivery.next_attempt_at} /> : <span className="muted">none</span>}</td>
                  <td>
                    {canRedeliver(delivery) ? (
                      <button
                        type="button"
                        className="button"
                        onClick={() => redeliver.mutate(delivery)}
                        disabled={redeliver.isPending && redeliver.variables?.id === delivery.id}
                        aria-label={`Redeliver ${delivery.event} of ${formatDateTime(delivery.created_at)}`}
                      >
                        Redeliver
                      </button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {deliveries.hasNextPage ? (
        <div className="pager">
          <button type="button" className="button" onClick={() => void deliveries.fetchNextPage()} disabled={deliveries.isFetchingNextPage}>
            {deliveries.isFetchingNextPage ? 'Loading older deliveries…' : 'Load older deliveries'}
          </button>
        </div>
      ) : null}
    </section>
  );
}
