/**
 * The webhooks page (/settings/webhooks): the workspace's webhooks; create (signing secret shown once), enable or
 * disable, send a test.ping, each one's delivery history with redeliver, delete.
 */
import { useState } from 'react';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, unwrapPage } from '../../../api/client';
import { ConfirmButton } from '../../../components/common/confirm-button';
import { EmptyState } from '../../../components/common/empty-state';
import { ErrorNotice } from '../../../components/common/error-notice';
import { Loading } from '../../../components/common/loading';
import { PageHeader } from '../../../components/common/page-header';
import { SecretOnce } from '../secret-once';
import type { Webhook } from '../settings-types';
import { DeliveryHistory, deliveriesKey } from './delivery-history';
import { WebhookForm } from './webhook-form';
import '../settings.css';

export default function WebhooksPage() {
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<{ title: string; secret: string } | null>(null);
  const [historyOf, setHistoryOf] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const webhooks = useInfiniteQuery({
    queryKey: ['webhooks', 'pages'],
    initialPageParam: '',
    queryFn: ({ pageParam }) => unwrapPage(api.GET('/api/v1/webhooks', { params: { query: { limit: 100, cursor: pageParam || undefined } } })),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const invalidate = () => queryClient.invalidateQueries({ queryKey: ['webhooks', 'pages'] });
  const toggle = useMutation({
    mutationFn: (webhook: Webhook) =>
      unwrap(api.PATCH('/api/v1/webhooks/{id}', { params: { path: { id: webhook.id } }, body: { enabled: !webhook.enabled } })),
    onSuccess: (saved) => setNotice(`${saved.url} is ${saved.enabled ? 'enabled' : 'disabled'}.`),
    onSettled: invalidate,
  });
  const sendTest = useMutation({
    mutationFn: (webhook: Webhook) => unwrap(api.POST('/api/v1/webhooks/{id}/test', { params: { path: { id: webhook.id } }, body: {} })),
    onSuccess: (_, webhook) => {
      setNotice(`A test.ping to ${webhook.url} is queued; its delivery appears below.`);
      setHistoryOf(webhook.id);
      void queryClient.invalidateQueries({ queryKey: deliveriesKey(webhook.id) });
    },
  });
  const rotate = useMutation({
    mutationFn: (webhook: Webhook) => unwrap(api.POST('/api/v1/webhooks/{id}/rotate', { params: { path: { id: webhook.id } } })),
    onSuccess: (answer, webhook) => {
      setNotice(null);
      setCreating(false);
      setSecret({ title: `New signing secret of ${webhook.url}`, secret: answer.secret });
    },
    onSettled: invalidate,
  });
  const remove = useMutation({
    mutationFn: (webhook: Webhook) => unwrap(api.DELETE('/api/v1/webhooks/{id}', { params: { path: { id: webhook.id } } })),
    onSuccess: (_, webhook) => {
      setNotice(`Deleted the webhook to ${webhook.url}.`);
      if (historyOf === webhook.id) setHistoryOf(null);
    },
    onSettled: invalidate,
  });

  const list = webhooks.data?.pages.flatMap((page) => page.items) ?? [];
  const shownHistory = list.find((webhook) => webhook.id === historyOf) ?? null;
  const start = () => {
    setSecret(null);
    setNotice(null);
    setCreating(true);
  };
  const newButton = (
    <button type="button" className="button primary" onClick={start}>
      New webhook
    </button>
  );

  return (
    <>
      <PageHeader
        title="Webhooks"
        description={
          <>
            Your HTTP endpoints learn when a run starts, completes or fails. Each delivery is signed (<code>X-Service-Signature</code>, HMAC-SHA256
            with the webhook’s secret) and retried up to 5 times.
          </>
        }
        actions={creating || secret ? null : newButton}
      />
      {notice ? (
        <div className="notice notice-success" role="status">
          <p>{notice}</p>
        </div>
      ) : null}
      {secret ? (
        <SecretOnce
          title={secret.title}
          secret={secret.secret}
          what="the signing secret"
          copyLabel="Copy the secret"
          onDone={() => setSecret(null)}
        >
          <p className="field-hint">Verify each delivery’s signature over the raw body with it before trusting the payload.</p>
        </SecretOnce>
      ) : null}
      {creating ? (
        <WebhookForm
          onCreated={(webhook) => {
            setCreating(false);
            setSecret({ title: `Webhook to ${webhook.url} created`, secret: webhook.secret });
          }}
          onCancel={() => setCreating(false)}
        />
      ) : null}
      <ErrorNotice error={toggle.error} title="The webhook was not changed" />
      <ErrorNotice error={sendTest.error} title="The test was not sent" />
      <ErrorNotice error={rotate.error} title="The secret was not rotated" />
      <ErrorNotice error={remove.error} title="The webhook was not deleted" />
      {webhooks.isPending ? (
        <Loading label="Loading webhooks…" />
      ) : !webhooks.data ? (
        <ErrorNotice error={webhooks.error} />
      ) : list.length === 0 ? (
        creating ? null : (
          <EmptyState title="No webhooks yet">
            <p>Add one to tell a chat bot, a CI system or your own service when runs start, complete or fail.</p>
            {newButton}
          </EmptyState>
        )
      ) : (
        <div className="table-wrap">
          <table>
            <caption>Webhooks of this workspace, newest first</caption>
            <thead>
              <tr>
                <th scope="col">URL</th>
                <th scope="col">Events</th>
                <th scope="col">State</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((webhook) => (
                <tr key={webhook.id}>
                  <th scope="row" className="wrap-anywhere">
                    {webhook.url}
                    {webhook.description ? <div className="muted">{webhook.description}</div> : null}
                  </th>
                  <td>
                    <ul className="tool-list" aria-label={`Events of ${webhook.url}`}>
                      {webhook.events.map((event) => (
                        <li key={event}>{event}</li>
                      ))}
                    </ul>
                  </td>
                  <td>
                    <span className={`badge badge-${webhook.enabled ? 'success' : 'muted'}`}>{webhook.enabled ? 'enabled' : 'disabled'}</span>
                  </td>
                  <td>
                    <div className="webhook-row-actions">
                      <button
                        type="button"
                        className="button"
                        aria-label={`Deliveries of ${webhook.url}`}
                        aria-expanded={historyOf === webhook.id}
                        aria-controls={historyOf === webhook.id ? 'webhook-history' : undefined}
                        onClick={() => setHistoryOf(historyOf === webhook.id ? null : webhook.id)}
                      >
                        Deliveries
                      </button>
                      <button
                        type="button"
                        className="button"
                        aria-label={`Send test to ${webhook.url}`}
                        onClick={() => sendTest.mutate(webhook)}
                        disabled={sendTest.isPending && sendTest.variables?.id === webhook.id}
                      >
                        Send test
                      </button>
                      <button
                        type="button"
                        className="button"
                        aria-label={`${webhook.enabled ? 'Disable' : 'Enable'} ${webhook.url}`}
                        onClick={() => toggle.mutate(webhook)}
                        disabled={toggle.isPending && toggle.variables?.id === webhook.id}
                      >
                        {webhook.enabled ? 'Disable' : 'Enable'}
                      </button>
                      <ConfirmButton
                        label="Rotate secret"
                        confirmLabel="Rotate the secret"
                        keepLabel="Keep"
                        danger={false}
                        question={`Rotate the signing secret of ${webhook.url}? Deliveries are signed with the new one at once.`}
                        busy={rotate.isPending && rotate.variables?.id === webhook.id}
                        onConfirm={() => rotate.mutate(webhook)}
                      />
                      <ConfirmButton
                        label="Delete"
                        confirmLabel="Delete webhook"
                        keepLabel="Keep"
                        question={`Delete the webhook to ${webhook.url}? Its waiting deliveries and history go too.`}
                        busy={remove.isPending && remove.variables?.id === webhook.id}
                        onConfirm={() => remove.mutate(webhook)}
                      />
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {webhooks.hasNextPage ? (
        <div className="pager">
          <button type="button" className="button" onClick={() => void webhooks.fetchNextPage()} disabled={webhooks.isFetchingNextPage}>
            {webhooks.isFetchingNextPage ? 'Loading more…' : 'Load more'}
          </button>
        </div>
      ) : null}
      {shownHistory ? (
        <div id="webhook-history">
          <DeliveryHistory key={shownHistory.id} webhook={shownHistory} />
        </div>
      ) : null}
    </>
  );
}
