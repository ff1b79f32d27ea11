/**
 * AskAi: ASK AI on every page. A header button (aria-expanded) opens a side panel (a labelled, non-modal dialog: Esc
 * closes it and gives focus back to the button; opening focuses the question). The panel holds the conversation with
 * the streamed answer, each tool call the model made (name, arguments, ok or failed, result summary), the workspace's
 * remaining AI tool-call budget after each answer (GET /usage), what to do when no model is set, and, for admins,
 * the model settings (ModelSettings).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { api, authorizedFetch, unwrap } from '../../api/client';
import { useWorkspace } from '../../workspace/workspace-context';
import { workspaceQuery } from '../../workspace/workspace-queries';
import { ErrorNotice, errorMessage } from '../common';
import { type AssistantTurn, applyEvent, argumentsText, historyOf, readEvents, type Turn } from './conversation';
import { ModelSettings } from './model-settings';
import './ask-ai.css';

export function AskAi() {
  const [open, setOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const close = () => {
    setOpen(false);
    toggleRef.current?.focus();
  };
  return (
    <>
      <button
        ref={toggleRef}
        type="button"
        className="button ask-ai-toggle"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((value) => !value)}
      >
        <span aria-hidden="true">✦</span> Ask AI
      </button>
      {open ? <AskAiPanel id={panelId} onClose={close} /> : null}
    </>
  );
}

function AskAiPanel({ id, onClose }: { id: string; onClose(): void }) {
  const titleId = useId();
  const { workspaceId } = useWorkspace();
  const queryClient = useQueryClient();
  const status = useQuery({ queryKey: ['assistant', workspaceId], queryFn: () => unwrap(api.GET('/api/v1/assistant')) });
  const workspace = useQuery(workspaceQuery(workspaceId));
  const usage = useQuery({ queryKey: ['usage', workspaceId], queryFn: () => unwrap(api.GET('/api/v1/usage')) });
  const isAdmin = workspace.data?.permissions.includes('manage_mcp_servers') ?? false;
  const [turns, setTurns] = useState<Turn[]>([]);
  const [question, setQuestion] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const abortRef = useRef<AbortController | null>(null);
  const questionRef = useRef<HTMLTextAreaElement>(null);
  const logRef = useRef<HTMLDivElement>(null);

  const panelRef = useRef<HTMLElement>(null);
  const configured = status.data?.configured ?? false;
  // Opened: the panel takes focus (a dialog is announced by its name), then the question once it can be asked.
  useEffect(() => {
    panelRef.current?.focus();
    return () => abortRef.current?.abort();
  }, []);
  useEffect(() => {
    if (configured) questionRef.current?.focus();
  }, [configured]);
  // A new workspace: a new conversation.
  useEffect(() => {
    abortRef.current?.abort();
    setTurns([]);
  }, [workspaceId]);
  useEffect(() => {
    const log = logRef.current;
    if (log) log.scrollTop = log.scrollHeight;
  }, [turns]);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    onClose();
  };

  const updateLast = (update: (turn: AssistantTurn) => AssistantTurn) =>
    setTurns((all) => {
      const last = all.at(-1);
      if (!last || last.role !== 'assistant') return all;
      return [...all.slice(0, -1), update(last)];
    });

  async function ask(event: FormEvent) {
    event.preventDefault();
    const text = question.trim();
    if (!text || busy) return;
    const asked: Turn[] = [...turns, { role: 'user', content: text }];
    setTurns([...asked, { role: 'assistant', content: '', toolCalls: [], state: 'streaming' }]);
    setQuestion('');
    setFailure(null);
    setBusy(true);
    const controller = new AbortController();
    abortRef.current = controller;
    try {
      const response = await authorizedFetch('/api/v1/assistant/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({ messages: historyOf(asked) }),
        signal: controller.signal,
      });
      if (!response.ok || !response.body) {
        const body = (await response.json().catch(() => ({}))) as { message?: string };
        updateLast((turn) => ({ ...turn, state: 'failed', error: body.message ?? `The service answered ${response.status}.` }));
        if (response.status === 409) void queryClient.invalidateQueries({ queryKey: ['assistant'] });
        return;
      }
      await readEvents(response.body, (streamed) => updateLast((turn) => applyEvent(turn, streamed)));
      updateLast((turn) => (turn.state === 'streaming' ? { ...turn, state: 'failed', error: 'The answer stopped before its end.' } : turn));
    } catch (error) {
      if (controller.signal.aborted) updateLast((turn) => ({ ...turn, state: 'stopped' }));
      else {
        updateLast((turn) => ({ ...turn, state: 'failed', error: errorMessage(error) }));
        setFailure(error);
      }
    } finally {
      setBusy(false);
      abortRef.current = null;
      void queryClient.invalidateQueries({ queryKey: ['usage'] });
      questionRef.current?.focus();
    }
  }

  const budget = usage.data?.ai_tool_calls;

  return (
    <section
      id={id}
      ref={panelRef}
      tabIndex={-1}
      className="ask-ai-panel"
      role="dialog"
      aria-modal="false"
      aria-labelledby={titleId}
      onKeyDown={onKeyDown}
    >
      <header className="ask-ai-head">
        <h2 id={titleId}>Ask AI</h2>
        <button type="button" className="button icon-button" onClick={onClose}>
          <span aria-hidden="true">×</span>
          <span className="visually-hidden">Close Ask AI</span>
        </button>
      </header>
      <p className="ask-ai-lead">
        Answers with this workspace&apos;s tools, with your own rights. Every tool call counts against the monthly AI tool-call budget.
      </p>
      {status.error ? <ErrorNotice error={status.error} title="ASK AI's state is unknown" /> : null}
      {status.data && !configured ? (
        <div className="notice notice-info" role="status">
          <strong className="notice-title">{status.data.enabled ? 'No model is set' : 'ASK AI is turned off'}</strong>
          <p>{status.data.message}</p>
          {isAdmin ? null : <p>Ask an admin of this workspace to set one.</p>}
        </div>
      ) : null}

      <div className="ask-ai-log" ref={logRef} role="log" aria-busy={busy} aria-label="Conversation">
        {turns.length === 0 && configured ? <p className="ask-ai-empty">Try: “How did my last run do?” or “Which machines are online?”</p> : null}
        {turns.map((turn, index) =>
          turn.role === 'user' ? (
            <div key={index} className="ask-ai-turn ask-ai-user">
              <span className="visually-hidden">You: </span>
              {turn.content}
            </div>
          ) : (
            <AnswerView key={index} turn={turn} />
          ),
        )}
      </div>

      <ErrorNotice error={failure} />
      <form className="ask-ai-form" onSubmit={ask}>
        <label htmlFor={`${id}-question`} className="visually-hidden">
          Your question
        </label>
        <textarea
          id={`${id}-question`}
          ref={questionRef}
          rows={3}
          maxLength={20_000}
          value={question}
          placeholder={configured ? 'Ask about runs, tests, machines…' : 'Set a model first'}
          disabled={!configured}
          onChange={(event) => setQuestion(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && !event.shiftKey) {
              event.preventDefault();
              event.currentTarget.form?.requestSubmit();
            }
          }}
        />
        <div className="actions">
          {busy ? (
            <button type="button" className="button" onClick={() => abortRef.current?.abort()}>
              Stop
            </button>
          ) : (
            <button type="submit" className="button primary" disabled={!configured || !question.trim()}>
              Ask
            </button>
          )}
          {turns.length > 0 && !busy ? (
            <button type="button" className="button" onClick={() => setTurns([])}>
              New conversation
            </button>
          ) : null}
        </div>
      </form>
      {budget ? (
        <p className="field-hint ask-ai-budget" data-testid="ask-ai-budget">
          AI tool calls this month: {budget.used}
          {budget.limit === null ? ' (no limit)' : ` of ${budget.limit}, ${Math.max(0, budget.limit - budget.used)} left`}
        </p>
      ) : null}
      {isAdmin ? <ModelSettings /> : null}
    </section>
  );
}

function AnswerView({ turn }: { turn: AssistantTurn }) {
  return (
    <div className="ask-ai-turn ask-ai-answer">
      <span className="visually-hidden">Ask AI: </span>
      {turn.toolCalls.length > 0 ? (
        <ul className="ask-ai-calls" aria-label="Tool calls">
          {turn.toolCalls.map((call) => (
            <li key={call.id} className="ask-ai-call">
              <details>
                <summary>
                  <code>{call.name}</code> <span className="ask-ai-args">{argumentsText(call.arguments)}</span>{' '}
                  <span className={`badge ${call.ok === undefined ? 'badge-neutral' : call.ok ? 'badge-success' : 'badge-danger'}`}>
                    {call.ok === undefined ? 'running' : call.ok ? 'ok' : 'failed'}
                  </span>
                </summary>
                {call.summary ? <pre className="ask-ai-summary">{call.summary}</pre> : null}
              </details>
            </li>
          ))}
        </ul>
      ) : null}
      {turn.content ? <div className="ask-ai-text">{turn.content}</div> : null}
      {turn.state === 'streaming' && !turn.content ? <p className="ask-ai-thinking">Thinking…</p> : null}
      {turn.state === 'stopped' ? <p className="field-hint">Stopped.</p> : null}
      {turn.state === 'failed' ? (
        <p className="field-error" role="alert">
          {turn.error}
        </p>
      ) : null}
    </div>
  );
}
