/**
 * Environment variables (/settings/env-vars): the workspace's keys with who changed them and when; set or replace a
 * value (write-only: a password field, cleared after saving, never shown again), delete a key.
 */
import { useId, useRef, useState, type FormEvent } from 'react';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, unwrap, unwrapPage } from '../../api/client';
import { ConfirmButton } from '../../components/common/confirm-button';
import { EmptyState } from '../../components/common/empty-state';
import { ErrorNotice } from '../../components/common/error-notice';
import { formatDateTime, formatRelativeTime } from '../../components/common/formatters';
import { Loading } from '../../components/common/loading';
import { PageHeader } from '../../components/common/page-header';
import { actorLabel, MAX_VARIABLES, validateKey, validateValue } from './env-var-model';

export default function EnvVarsPage() {
  const id = useId().replace(/:/g, '');
  const queryClient = useQueryClient();
  const keyRef = useRef<HTMLInputElement>(null);
  const valueRef = useRef<HTMLInputElement>(null);
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const [errors, setErrors] = useState<{ key?: string; value?: string }>({});
  const [notice, setNotice] = useState<string | null>(null);

  const variables = useInfiniteQuery({
    queryKey: ['env-vars', 'pages'],
    initialPageParam: '',
    queryFn: ({ pageParam }) => unwrapPage(api.GET('/api/v1/env-vars', { params: { query: { limit: 100, cursor: pageParam || undefined } } })),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const save = useMutation({
    mutationFn: (input: { key: string; value: string }) =>
      unwrap(api.PUT('/api/v1/env-vars/{key}', { params: { path: { key: input.key } }, body: { value: input.value } })),
    onSuccess: (saved, input) => {
      // The value is gone from the page the moment it is stored.
      setValue('');
      setKey('');
      setErrors({});
      const replaced = list.some((v) => v.key === input.key);
      setNotice(`${saved.key} ${replaced ? 'replaced' : 'saved'}. Its value is stored encrypted and is never shown again; runs started from now on get it.`);
      keyRef.current?.focus();
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 400 && /\bkey\b|reserved/i.test(error.message)) {
        setErrors({ key: error.message });
        keyRef.current?.focus();
      }
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['env-vars'] }),
  });
  const remove = useMutation({
    mutationFn: (name: string) => unwrap(api.DELETE('/api/v1/env-vars/{key}', { params: { path: { key: name } } })),
    onSuccess: (_r, name) => setNotice(`${name} deleted. Runs started from now on no longer get it.`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['env-vars'] }),
  });

  const list = variables.data?.pages.flatMap((page) => page.items) ?? [];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setNotice(null);
    const name = key.trim();
    const found = { key: validateKey(name) ?? undefined, value: value === '' ? 'Enter the value.' : (validateValue(value) ?? undefined) };
    setErrors(found);
    if (found.key) keyRef.current?.focus();
    else if (found.value) valueRef.current?.focus();
    else save.mutate({ key: name, value });
  };

  const replace = (name: string) => {
    setNotice(null);
    save.reset();
    setErrors({});
    setKey(name);
    setValue('');
    valueRef.current?.focus();
  };

  const formError = save.error instanceof ApiError && errors.key === save.error.message ? null : save.error;
  const replacing = list.some((v) => v.key === key.trim());

  return (
    <>
      <PageHeader
        title="Environment variables"
        description={
          <>
            Secrets and settings for your scripts: every run&apos;s tool gets them in its environment (<code>__ENV.API_KEY</code> in k6,{' '}
            <code>os.environ</code> in Locust, <code>$API_KEY</code> in a shell). Values are write-only and masked as <code>***</code> in run logs.
          </>
        }
      />
      {notice ? (
        <div className="notice notice-success" role="status">
          <p>{notice}</p>
        </div>
      ) : null}
      <form className="panel" onSubmit={submit} noValidate aria-labelledby={`${id}-title`} autoComplete="off">
        <h2 id={`${id}-title`}>{replacing ? `Replace the value of ${key.trim()}` : 'Set a variable'}</h2>
        <div className="field-row">
          <div className="field">
            <label htmlFor={`${id}-key`}>Name</label>
            <input
              ref={keyRef}
              id={`${id}-key`}
              value={key}
              onChange={(event) => setKey(event.target.value)}
              maxLength={128}
              size={28}
              autoComplete="off"
              spellCheck={false}
              placeholder="API_KEY"
              aria-invalid={errors.key ? true : undefined}
              aria-describedby={`${id}-key-hint${errors.key ? ` ${id}-key-error` : ''}`}
            />
            <p className="field-hint" id={`${id}-key-hint`}>
              Letters, digits and _; names the agent or the engines read themselves (PATH, LD_*, PYTHON*, K6_* ...) are reserved.
            </p>
            {errors.key ? (
              <p className="field-error" id={`${id}-key-error`}>
                {errors.key}
              </p>
            ) : null}
          </div>
          <div className="field">
            <label htmlFor={`${id}-value`}>Value</label>
            <input
              ref={valueRef}
              id={`${id}-value`}
              type="password"
              value={value}
              onChange={(event) => setValue(event.target.value)}
              size={32}
              autoComplete="new-password"
              spellCheck={false}
              aria-invalid={errors.value ? true : undefined}
              aria-describedby={`${id}-value-hint${errors.value ? ` ${id}-value-error` : ''}`}
            />
            <p className="field-hint" id={`${id}-value-hint`}>
              Write-only: stored encrypted and never shown again. Up to 8 KiB.
            </p>
            {errors.value ? (
              <p className="field-error" id={`${id}-value-error`}>
                {errors.value}
              </p>
            ) : null}
          </div>
        </div>
        <ErrorNotice error={formError} title="The variable was not saved" />
        <div className="actions">
          <button type="submit" className="button primary" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : replacing ? 'Replace value' : 'Save variable'}
          </button>
          {key || value ? (
            <button
              type="button"
              className="button"
              onClick={() => {
                setKey('');
                setValue('');
                setErrors({});
                save.reset();
              }}
            >
              Clear
            </button>
          ) : null}
        </div>
      </form>
      <ErrorNotice error={remove.error} title="The variable was not deleted" />
      {variables.isPending ? (
        <Loading label="Loading the environment variables…" />
      ) : !variables.data ? (
        <ErrorNotice error={variables.error} title="The environment variables could not be loaded" />
      ) : list.length === 0 ? (
        <EmptyState title="No environment variables yet">
          <p>
            Set one above, such as <code>API_KEY</code> or <code>TARGET_URL</code>, and read it from your scripts instead of writing secrets
            into them. A workspace holds up to {MAX_VARIABLES}.
          </p>
        </EmptyState>
      ) : (
        <>
          <div className="table-wrap">
            <table>
              <caption>
                Environment variables, newest first ({list.length}
                {variables.hasNextPage ? '+' : ''} of at most {MAX_VARIABLES}); values are never shown
              </caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Last changed</th>
                  <th scope="col">Changed by</th>
                  <th scope="col">Created</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((variable) => (
                  <tr key={variable.key}>
                    <th scope="row">
                      <code>{variable.key}</code>
                    </th>
                    <td>
                      <time dateTime={variable.updated_at} title={formatDateTime(variable.updated_at)}>
                        {formatRelativeTime(variable.updated_at)}
                      </time>
                    </td>
                    <td>{actorLabel(variable.updated_by)}</td>
                    <td>
                      <time dateTime={variable.created_at}>{formatDateTime(variable.created_at)}</time>
                    </td>
                    <td>
                      <div className="actions">
                        <button type="button" className="button" onClick={() => replace(variable.key)} aria-label={`Replace value of ${variable.key}`}>
                          Replace value
                        </button>
                        <ConfirmButton
                          label="Delete"
                          confirmLabel={`Delete ${variable.key}`}
                          keepLabel="Keep"
                          question={`Delete ${variable.key}? Scripts that read it get nothing.`}
                          busy={remove.isPending && remove.variables === variable.key}
                          onConfirm={() => remove.mutate(variable.key)}
                        />
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {variables.hasNextPage ? (
            <div className="pager">
              <button type="button" className="button" onClick={() => void variables.fetchNextPage()} disabled={variables.isFetchingNextPage}>
                {variables.isFetchingNextPage ? 'Loading more…' : 'Load more'}
              </button>
            </div>
          ) : null}
          <ErrorNotice error={variables.error} />
        </>
      )}
    </>
  );
}
