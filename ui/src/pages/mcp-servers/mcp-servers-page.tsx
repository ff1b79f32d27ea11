/**
 * Remote MCP servers (/settings/mcp-servers, workspace admins): attach one (name, URL, headers whose values are
 * write-only and never shown again), test its connection, see every server's tools under their prefixed names, detach.
 */
import { useId, useRef, useState, type FormEvent } from 'react';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, unwrap, unwrapPage } from '../../api/client';
import type { components } from '../../api/schema';
import { ConfirmButton } from '../../components/common/confirm-button';
import { EmptyState } from '../../components/common/empty-state';
import { ErrorNotice } from '../../components/common/error-notice';
import { formatDateTime, formatRelativeTime } from '../../components/common/formatters';
import { Loading } from '../../components/common/loading';
import { PageHeader } from '../../components/common/page-header';
import { TextField } from '../../components/common/text-field';
import {
  bodyOfServer,
  connectionOf,
  connectionText,
  emptyServerDraft,
  newHeaderRow,
  validateServer,
  type ServerDraft,
  type ServerErrors,
} from './mcp-server-model';
import './mcp-servers.css';

type McpServer = components['schemas']['McpServer'];

const toolsQuery = {
  queryKey: ['mcp-servers', 'tools'] as const,
  queryFn: () => unwrap(api.GET('/api/v1/mcp-servers/tools')),
  staleTime: 60_000,
};

function AttachForm({ onDone }: { onDone(server: McpServer | null): void }) {
  const id = useId().replace(/:/g, '');
  const queryClient = useQueryClient();
  const formRef = useRef<HTMLFormElement>(null);
  const [draft, setDraft] = useState<ServerDraft>(emptyServerDraft);
  const [errors, setErrors] = useState<ServerErrors>({});
  const focusFirstError = () =>
    window.requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());

  const attach = useMutation({
    mutationFn: (body: ReturnType<typeof bodyOfServer>) => unwrap(api.POST('/api/v1/mcp-servers', { body })),
    onSuccess: (server) => {
      setDraft(emptyServerDraft());
      void queryClient.invalidateQueries({ queryKey: ['mcp-servers'] });
      onDone(server);
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 409) {
        setErrors({ name: error.message });
        focusFirstError();
      }
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validateServer(draft);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      focusFirstError();
      return;
    }
    attach.mutate(bodyOfServer(draft));
  };
  const setRow = (key: number, patch: { name?: string; value?: string }) =>
    setDraft((current) => ({ ...current, headers: current.headers.map((row) => (row.key === key ? { ...row, ...patch } : row)) }));
  const formError = attach.error instanceof ApiError && errors.name === attach.error.message ? null : attach.error;

  return (
    <form ref={formRef} className="panel" onSubmit={submit} noValidate aria-labelledby={`${id}-title`} autoComplete="off">
      <h2 id={`${id}-title`}>Attach an MCP server</h2>
      <div className="field-row">
        <TextField
          id={`${id}-name`}
          label="Name"
          value={draft.name}
          onChange={(name) => setDraft((current) => ({ ...current, name }))}
          error={errors.name}
          hint="Prefixes its tools: the tool search of jira is offered as jira__search."
          inputProps={{ size: 20, maxLength: 32, spellCheck: false, placeholder: 'jira' }}
        />
        <TextField
          id={`${id}-url`}
          label="URL"
          value={draft.url}
          onChange={(url) => setDraft((current) => ({ ...current, url }))}
          error={errors.url}
          hint="Its streamable-HTTP endpoint. Private or local addresses need WEBHOOK_ALLOW_HOSTS on the service."
          inputProps={{ type: 'url', size: 44, spellCheck: false, placeholder: 'https://mcp.example.com/mcp' }}
        />
      </div>
      <fieldset>
        <legend>Headers (optional)</legend>
        <p className="field-hint">Sent with every request to the server, e.g. authorization. Values are stored encrypted and never shown again.</p>
        {errors.headers ? <p className="field-error">{errors.headers}</p> : null}
        {draft.headers.map((row, index) => (
          <div className="field-row mcp-header-row" key={row.key}>
            <TextField
              id={`${id}-header-${row.key}-name`}
              label={`Header ${index + 1} name`}
              value={row.name}
              onChange={(name) => setRow(row.key, { name })}
              error={errors[`headers[${index}].name`]}
              inputProps={{ size: 20, spellCheck: false, placeholder: 'authorization' }}
            />
            <TextField
              id={`${id}-header-${row.key}-value`}
              label={`Header ${index + 1} value`}
              value={row.value}
              onChange={(value) => setRow(row.key, { value })}
              error={errors[`headers[${index}].value`]}
              inputProps={{ type: 'password', size: 32, autoComplete: 'new-password', spellCheck: false }}
            />
            <button
              type="button"
              className="button"
              onClick={() => setDraft((current) => ({ ...current, headers: current.headers.filter((r) => r.key !== row.key) }))}
              aria-label={`Remove header ${index + 1}`}
            >
              Remove
            </button>
          </div>
        ))}
        <button
          type="button"
          className="button"
          onClick={() => setDraft((current) => ({ ...current, headers: [...current.headers, newHeaderRow()] }))}
          disabled={draft.headers.length >= 20}
        >
          Add header
        </button>
      </fieldset>
      <ErrorNotice error={formError} title="The server was not attached" />
      <div className="actions">
        <button type="submit" className="button primary" disabled={attach.isPending}>
          {attach.isPending ? 'Attaching…' : 'Attach server'}
        </button>
        <button type="button" className="button" onClick={() => onDone(null)}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export default function McpServersPage() {
  const id = useId();
  const queryClient = useQueryClient();
  const [adding, setAdding] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [testedId, setTestedId] = useState<string | null>(null);
  const servers = useInfiniteQuery({
    queryKey: ['mcp-servers', 'pages'],
    initialPageParam: '',
    queryFn: ({ pageParam }) => unwrapPage(api.GET('/api/v1/mcp-servers', { params: { query: { limit: 100, cursor: pageParam || undefined } } })),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const list = servers.data?.pages.flatMap((page) => page.items) ?? [];
  const tools = useQuery({ ...toolsQuery, enabled: list.length > 0 });
  const remove = useMutation({
    mutationFn: (server: McpServer) => unwrap(api.DELETE('/api/v1/mcp-servers/{id}', { params: { path: { id: server.id } } })),
    onSuccess: (_r, server) => setNotice(`${server.name} detached: its tools are no longer offered.`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['mcp-servers'] }),
  });
  const test = (server: McpServer) => {
    setNotice(null);
    setTestedId(server.id);
    void tools.refetch();
  };
  const forbidden = servers.error instanceof ApiError && servers.error.status === 403;

  return (
    <>
      <PageHeader
        title="MCP servers"
        description="Remote MCP servers (an issue tracker, a wiki, an observability stack) whose tools ASK AI and the MCP endpoint offer beside Loadplane's own, prefixed with the server's name. Workspace admins manage them."
        actions={
          adding || forbidden ? null : (
            <button
              type="button"
              className="button primary"
              onClick={() => {
                setNotice(null);
                setAdding(true);
              }}
            >
              Attach server
            </button>
          )
        }
      />
      {notice ? (
        <div className="notice notice-success" role="status">
          <p>{notice}</p>
        </div>
      ) : null}
      {adding ? (
        <AttachForm
          onDone={(server) => {
            setAdding(false);
            if (server) {
              setNotice(
                `${server.name} attached.${server.header_names.length ? ' Its header values are stored encrypted and never shown again.' : ''} Test its connection below.`,
              );
              setTestedId(server.id);
            }
          }}
        />
      ) : null}
      <ErrorNotice error={remove.error} title="The server was not detached" />
      {servers.isPending ? (
        <Loading label="Loading the MCP servers…" />
      ) : !servers.data ? (
        <ErrorNotice error={servers.error} title={forbidden ? 'Only workspace admins manage MCP servers' : 'The MCP servers could not be loaded'} />
      ) : list.length === 0 ? (
        adding ? null : (
          <EmptyState title="No MCP servers attached">
            <p>
              Attach a server by its streamable-HTTP URL, with an authorization header if it needs one. Its tools then appear here as{' '}
              <code>name__tool</code>, for ASK AI and for AI agents using an admin token.
            </p>
            <button type="button" className="button primary" onClick={() => setAdding(true)}>
              Attach server
            </button>
          </EmptyState>
        )
      ) : (
        <>
          <div className="table-wrap">
            <table>
              <caption>Attached MCP servers, newest first (at most 10)</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">URL</th>
                  <th scope="col">Headers (values never shown)</th>
                  <th scope="col">Connection</th>
                  <th scope="col">Attached</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((server) => {
                  const testing = tools.isFetching && testedId === server.id;
                  const connection = connectionOf(tools.data, server.id);
                  return (
                    <tr key={server.id}>
                      <th scope="row">
                        <code>{server.name}</code>
                      </th>
                      <td className="mcp-url">{server.url}</td>
                      <td>{server.header_names.length ? server.header_names.join(', ') : 'none'}</td>
                      <td>
                        <span role={testedId === server.id ? 'status' : undefined} className={connection.state === 'failed' ? 'mcp-failed' : undefined}>
                          {testing || (tools.isPending && tools.fetchStatus === 'fetching') ? 'testing…' : connectionText(connection)}
                        </span>
                      </td>
                      <td>
                        <time dateTime={server.created_at} title={formatDateTime(server.created_at)}>
                          {formatRelativeTime(server.created_at)}
                        </time>
                      </td>
                      <td>
                        <div className="actions">
                          <button type="button" className="button" onClick={() => test(server)} disabled={tools.isFetching} aria-label={`Test connection to ${server.name}`}>
                            Test connection
                          </button>
                          <ConfirmButton
                            label="Detach"
                            confirmLabel={`Detach ${server.name}`}
                            keepLabel="Keep"
                            question={`Detach ${server.name}? Its tools are no longer offered.`}
                            busy={remove.isPending && remove.variables?.id === server.id}
                            onConfirm={() => remove.mutate(server)}
                          />
                        </div>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          {servers.hasNextPage ? (
            <div className="pager">
              <button type="button" className="button" onClick={() => void servers.fetchNextPage()} disabled={servers.isFetchingNextPage}>
                {servers.isFetchingNextPage ? 'Loading more…' : 'Load more'}
              </button>
            </div>
          ) : null}
          <ErrorNotice error={servers.error} />
          <section aria-labelledby={`${id}-tools`} className="mcp-tools">
            <h2 id={`${id}-tools`}>Tools</h2>
            <p className="muted">Every server is asked for its tools in parallel, 3 s each; a server that fails is listed with the reason.</p>
            {tools.isPending ? (
              <Loading label="Asking the servers for their tools…" />
            ) : !tools.data ? (
              <ErrorNotice error={tools.error} title="The tools could not be listed" />
            ) : (
              <>
                {tools.data.skipped.length ? (
                  <div className="notice notice-warning">
                    <strong className="notice-title">Not listed</strong>
                    <ul>
                      {tools.data.skipped.map((s) => (
                        <li key={s.server_id}>
                          <code>{s.server}</code>: {s.reason}
                        </li>
                      ))}
                    </ul>
                  </div>
                ) : null}
                {tools.data.tools.length === 0 ? (
                  <p>No tools: the servers that answered offer none.</p>
                ) : (
                  <div className="table-wrap">
                    <table>
                      <caption>Tools by server, as offered (prefixed)</caption>
                      <thead>
                        <tr>
                          <th scope="col">Tool</th>
                          <th scope="col">Server</th>
                          <th scope="col">Description</th>
                        </tr>
                      </thead>
                      <tbody>
                        {tools.data.tools.map((tool) => (
                          <tr key={tool.prefixed_name}>
                            <th scope="row">
                              <code>{tool.prefixed_name}</code>
                            </th>
                            <td>{tool.server}</td>
                            <td>
                              {tool.title ? <strong>{tool.title}. </strong> : null}
                              {tool.description}
                            </td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </div>
                )}
                <ErrorNotice error={tools.error} />
              </>
            )}
          </section>
        </>
      )}
    </>
  );
}
