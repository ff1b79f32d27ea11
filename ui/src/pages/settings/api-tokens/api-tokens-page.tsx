/**
 * The API tokens page (/settings/api-tokens): your tokens in this workspace (name, scopes, expiry, last used, created),
 * the plan's limit with how many are used, create (plaintext shown once), rotate (new plaintext shown once), revoke.
 */
import { useState } from 'react';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, unwrapPage } from '../../../api/client';
import type { ApiToken } from '../../../api/types';
import { ConfirmButton } from '../../../components/common/confirm-button';
import { EmptyState } from '../../../components/common/empty-state';
import { ErrorNotice } from '../../../components/common/error-notice';
import { formatDateTime, formatRelativeTime } from '../../../components/common/formatters';
import { Loading } from '../../../components/common/loading';
import { PageHeader } from '../../../components/common/page-header';
import { SecretOnce } from '../secret-once';
import { useCurrentWorkspace } from '../use-current-workspace';
import { TokenForm } from './token-form';
import { activeTokenCount, describeScopes, isExpired, tokenLimitText } from './token-model';
import '../settings.css';

interface Shown {
  title: string;
  token: string;
}

function When({ iso, empty }: { iso: string | null; empty: string }) {
  if (!iso) return <span className="muted">{empty}</span>;
  return (
    <time dateTime={iso} title={formatDateTime(iso)}>
      {formatRelativeTime(iso)}
    </time>
  );
}

export default function ApiTokensPage() {
  const queryClient = useQueryClient();
  const workspace = useCurrentWorkspace();
  const [creating, setCreating] = useState(false);
  const [shown, setShown] = useState<Shown | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const tokens = useInfiniteQuery({
    queryKey: ['api-tokens', 'pages'],
    initialPageParam: '',
    queryFn: ({ pageParam }) => unwrapPage(api.GET('/api/v1/api-tokens', { params: { query: { limit: 100, cursor: pageParam || undefined } } })),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const revoke = useMutation({
    mutationFn: (token: ApiToken) => unwrap(api.DELETE('/api/v1/api-tokens/{id}', { params: { path: { id: token.id } } })),
    onSuccess: (_, token) => {
      setNotice(`Revoked ${token.name}: it stopped working at once.`);
      if (shown) setShown(null);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['api-tokens'] }),
  });
  const rotate = useMutation({
    mutationFn: (token: ApiToken) => unwrap(api.POST('/api/v1/api-tokens/{id}/rotate', { params: { path: { id: token.id } } })),
    onSuccess: (rotated, token) => {
      setNotice(null);
      setShown({ title: `New secret of ${token.name}`, token: rotated.token });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['api-tokens'] }),
  });

  const list = tokens.data?.pages.flatMap((page) => page.items) ?? [];
  const limit = workspace.data?.limits.apiTokensPerUser;
  const used = activeTokenCount(list);
  const full = limit !== undefined && used >= limit;
  const start = () => {
    setShown(null);
    setNotice(null);
    setCreating(true);
  };
  const newButton = (
    <button type="button" className="button primary" onClick={start} disabled={full} aria-describedby={full ? 'token-limit' : undefined}>
      New token
    </button>
  );

  return (
    <>
      <PageHeader
        title="API tokens"
        description={
          <>
            Personal tokens (<code>psk_…</code>) for scripts, CI, agents and the MCP server. A token acts as you, with your role, only in this
            workspace. Send it as <code>Authorization: Bearer psk_…</code>.
          </>
        }
        actions={creating || shown ? null : newButton}
      />
      {limit !== undefined && !tokens.isPending ? (
        <p id="token-limit" className={full ? 'notice notice-info' : 'muted'}>
          {tokenLimitText(used, limit)}
          {full && limit > 0 ? '. Revoke a token to create another.' : ''}
        </p>
      ) : null}
      {notice ? (
        <div className="notice notice-success" role="status">
          <p>{notice}</p>
        </div>
      ) : null}
      {shown ? <SecretOnce title={shown.title} secret={shown.token} what="the token" copyLabel="Copy the token" onDone={() => setShown(null)} /> : null}
      {creating ? (
        <TokenForm
          onCreated={(token) => {
            setCreating(false);
            setShown({ title: `Token ${token.name} created`, token: token.token });
          }}
          onCancel={() => setCreating(false)}
        />
      ) : null}
      <ErrorNotice error={revoke.error} title="The token was not revoked" />
      <ErrorNotice error={rotate.error} title="The token was not rotated" />
      {tokens.isPending ? (
        <Loading label="Loading API tokens…" />
      ) : !tokens.data ? (
        <ErrorNotice error={tokens.error} />
      ) : list.length === 0 ? (
        creating ? null : (
          <EmptyState title="No API tokens yet">
            <p>
              Create a token to call the API from a script or CI, to connect an agent, or to give an AI assistant the MCP server. Pick scopes to
              narrow what it may do.
            </p>
            {newButton}
          </EmptyState>
        )
      ) : (
        <div className="table-wrap">
          <table>
            <caption>Your API tokens in this workspace, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Scopes</th>
                <th scope="col">Expires</th>
                <th scope="col">Last used</th>
                <th scope="col">Created</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((token) => (
                <tr key={token.id}>
                  <th scope="row">
                    {token.name}
                    <div className="muted">
                      <code>{token.prefix}…</code>
                    </div>
                  </th>
                  <td>{describeScopes(token.scopes)}</td>
                  <td>
                    {isExpired(token) ? <span className="badge badge-danger">expired</span> : null} <When iso={token.expires_at} empty="never" />
                  </td>
                  <td>
                    <When iso={token.last_used_at} empty="never used" />
                  </td>
                  <td>
                    <When iso={token.created_at} empty="–" />
                    {token.rotated_at ? (
                      <div className="muted">
                        rotated <When iso={token.rotated_at} empty="" />
                      </div>
                    ) : null}
                  </td>
                  <td>
                    <div className="actions">
                      <ConfirmButton
                        label="Rotate"
                        confirmLabel={`Rotate ${token.name}`}
                        keepLabel="Keep"
                        danger={false}
                        question={`Rotate ${token.name}? Its current secret stops working at once.`}
                        busy={rotate.isPending && rotate.variables?.id === token.id}
                        onConfirm={() => rotate.mutate(token)}
                      />
                      <ConfirmButton
                        label="Revoke"
                        confirmLabel={`Revoke ${token.name}`}
                        keepLabel="Keep"
                        question={`Revoke ${token.name}? Whatever uses it loses access at once.`}
                        busy={revoke.isPending && revoke.variables?.id === token.id}
                        onConfirm={() => revoke.mutate(token)}
                      />
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {tokens.hasNextPage ? (
        <div className="pager">
          <button type="button" className="button" onClick={() => void tokens.fetchNextPage()} disabled={tokens.isFetchingNextPage}>
            {tokens.isFetchingNextPage ? 'Loading more…' : 'Load more'}
          </button>
        </div>
      ) : null}
    </>
  );
}
