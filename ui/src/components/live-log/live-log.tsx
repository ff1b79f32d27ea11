/**
 * LiveLog({ taskId, live, downloadName? }): a run's log, followed live over SSE; lines flushed once per frame into a
 * bounded ring, a virtualized list of fixed-height rows, ANSI colours, follow/pause, search and "Download log".
 */
import { memo, useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactElement, type WheelEvent } from 'react';
import { authorizedFetch } from '../../api/client';
import { parseAnsi, stripAnsi } from './ansi';
import { downloadStoredLog } from './download-log';
import { followTaskLog, type LogLine, type StreamStatus } from './log-stream';
import { RingBuffer } from './ring-buffer';
import { containsMatch, highlightSegments, matchRanges, matcherOf } from './search';
import './live-log.css';

/** Height of one row in pixels; the stylesheet's `.live-log-row` line-height matches it. */
export const ROW_HEIGHT = 20;
/** Lines kept in memory; older ones are dropped from view (the download has them all). */
export const MAX_LINES = 100_000;
const OVERSCAN = 15;
/** Within this distance of the bottom the view counts as "at the bottom" (and follows). */
const BOTTOM_SLACK = ROW_HEIGHT * 1.5;

interface ShownLine {
  /** Number shown in the gutter: the line's id in the run, else its position. */
  number: number;
  source: 'out' | 'err';
  text: string;
  /** The text without escape sequences (the same string when it has none). */
  plain: string;
}

function statusText(status: StreamStatus, live: boolean): string {
  switch (status.phase) {
    case 'connecting':
      return status.attempt > 1 ? `Connecting to the log (attempt ${status.attempt})…` : 'Connecting to the log…';
    case 'following':
      return live ? 'Following the live log.' : 'Reading the stored log…';
    case 'waiting':
      return `Waiting: ${status.reason}`;
    case 'note':
      return status.text;
    case 'reconnecting':
      return `Connection lost (${status.reason}); reconnecting${status.inSeconds > 0 ? ` in ${status.inSeconds} s` : ''}…`;
    case 'ended':
      return status.taskStatus ? `The run ended: ${status.taskStatus}${status.error ? ` (${status.error})` : ''}.` : 'The log is complete.';
    case 'failed':
      return status.message;
  }
}

const LogRow = memo(function LogRow(props: { line: ShownLine; top: number; matcher: RegExp | null; current: boolean }) {
  const { line, top, matcher, current } = props;
  const segments = parseAnsi(line.text);
  const pieces = matcher && containsMatch(matcher, line.plain) ? highlightSegments(segments, matchRanges(matcher, line.plain)) : null;
  return (
    <div
      className={`live-log-row${line.source === 'err' ? ' live-log-err' : ''}${current ? ' live-log-current' : ''}`}
      style={{ top }}
    >
      <span className="live-log-number" aria-hidden="true">
        {line.number}
      </span>
      <span className="live-log-text">
        {pieces
          ? pieces.map((piece, i) =>
              piece.match ? (
                <mark key={i} className={piece.className || undefined}>
                  {piece.text}
                </mark>
              ) : (
                <span key={i} className={piece.className || undefined}>
                  {piece.text}
                </span>
              ),
            )
          : segments.map((segment, i) =>
              segment.className ? (
                <span key={i} className={segment.className}>
                  {segment.text}
                </span>
              ) : (
                segment.text
              ),
            )}
      </span>
    </div>
  );
});

/** Binary search: index of the first value ≥ target in an ascending array. */
function lowerBound(values: readonly number[], target: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid]! < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function LiveLog(props: { taskId: string; live: boolean; downloadName?: string }) {
  const { taskId, live, downloadName } = props;
  const id = useId();
  const liveRef = useRef(live);
  liveRef.current = live;

  const ringRef = useRef(new RingBuffer<ShownLine>(MAX_LINES));
  const pendingRef = useRef<LogLine[]>([]);
  /** Lines received but never kept (a hidden tab fell this far behind): counted, so positions stay right. */
  const skippedRef = useRef(0);
  const frameRef = useRef<number | null>(null);
  const viewportRef = useRef<HTMLDivElement>(null);
  const followRef = useRef(true);
  const pausedAtRef = useRef(0);
  /** Where the last automatic scroll to the bottom left the view: a view above it was moved up by the user. */
  const autoTopRef = useRef<number | null>(null);
  const previousStartRef = useRef(0);

  const [version, setVersion] = useState(0);
  const [status, setStatus] = useState<StreamStatus>({ phase: 'connecting', attempt: 1 });
  const [follow, setFollowState] = useState(true);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewportHeight, setViewportHeight] = useState(400);

  // Search: the query typed, the one applied (debounced), the matching positions and the current one.
  const [query, setQuery] = useState('');
  const [appliedQuery, setAppliedQuery] = useState('');
  const matcher = useMemo(() => matcherOf(appliedQuery), [appliedQuery]);
  const matcherRef = useRef<RegExp | null>(null);
  matcherRef.current = matcher;
  const matchesRef = useRef<number[]>([]);
  const [currentMatch, setCurrentMatch] = useState<number | null>(null);

  const [download, setDownload] = useState<{ busy: boolean; lines: number; error: string | null }>({ busy: false, lines: 0, error: null });
  const downloadAbortRef = useRef<AbortController | null>(null);

  const setFollow = useCallback((value: boolean) => {
    if (followRef.current === value) return;
    followRef.current = value;
    if (!value) pausedAtRef.current = ringRef.current.end;
    setFollowState(value);
  }, []);

  // Moves the lines received since the last frame into the ring, once per animation frame.
  const flush = useCallback(() => {
    frameRef.current = null;
    const pending = pendingRef.current;
    if (pending.length === 0) return;
    pendingRef.current = [];
    const ring = ringRef.current;
    const incoming = pending.length > MAX_LINES ? pending.slice(pending.length - MAX_LINES) : pending;
    ring.skip(skippedRef.current + pending.length - incoming.length);
    skippedRef.current = 0;
    const from = ring.end;
    for (const line of incoming) {
      ring.push({ number: line.id ?? ring.end + 1, source: line.source, text: line.text, plain: stripAnsi(line.text) });
    }
    const current = matcherRef.current;
    const matches = matchesRef.current;
    if (current) {
      for (let position = Math.max(from, ring.start); position < ring.end; position++) {
        if (containsMatch(current, ring.at(position)?.plain ?? '')) matches.push(position);
      }
    }
    if (matches.length && matches[0]! < ring.start) matches.splice(0, lowerBound(matches, ring.start));
    setVersion((v) => v + 1);
  }, []);

  const receive = useCallback(
    (lines: LogLine[]) => {
      const pending = pendingRef.current;
      for (const line of lines) pending.push(line);
      if (frameRef.current === null) {
        // A hidden tab gets no animation frames: flush on a timer there so memory stays bounded.
        frameRef.current = document.hidden ? window.setTimeout(flush, 250) : window.requestAnimationFrame(flush);
      }
      if (pending.length > MAX_LINES * 2) skippedRef.current += pending.splice(0, pending.length - MAX_LINES).length;
    },
    [flush],
  );

  // Follow the stream of this task.
  useEffect(() => {
    const controller = new AbortController();
    ringRef.current.clear();
    pendingRef.current = [];
    skippedRef.current = 0;
    matchesRef.current = [];
    previousStartRef.current = 0;
    autoTopRef.current = null;
    setCurrentMatch(null);
    setVersion((v) => v + 1);
    void followTaskLog({
      taskId,
      fetch: authorizedFetch,
      isLive: () => liveRef.current,
      onLines: receive,
      onStatus: (next) => {
        if (!controller.signal.aborted) setStatus(next);
      },
      signal: controller.signal,
      after: 0,
    });
    return () => {
      controller.abort();
      if (frameRef.current !== null) {
        window.cancelAnimationFrame(frameRef.current);
        window.clearTimeout(frameRef.current);
        frameRef.current = null;
      }
    };
  }, [taskId, receive]);

  useEffect(() => () => downloadAbortRef.current?.abort(), []);

  // Viewport size.
  useEffect(() => {
    const viewport = viewportRef.current;
    if (!viewport) return;
    const observer = new ResizeObserver(() => setViewportHeight(viewport.clientHeight));
    observer.observe(viewport);
    setViewportHeight(viewport.clientHeight);
    return () => observer.disconnect();
  }, []);

  // After each flush: follow the bottom, or keep the lines in view still when older ones were dropped.
  useLayoutEffect(() => {
    const viewport = viewportRef.current;
    const ring = ringRef.current;
    if (!viewport) return;
    const dropped = ring.start - previousStartRef.current;
    previousStartRef.current = ring.start;
    if (followRef.current && autoTopRef.current !== null && viewport.scrollTop < autoTopRef.current - BOTTOM_SLACK) {
      // The user scrolled up since the last automatic scroll (its scroll event not handled yet): pause, stay there.
      setFollow(false);
      setScrollTop(viewport.scrollTop);
    } else if (followRef.current) {
      viewport.scrollTop = viewport.scrollHeight;
      autoTopRef.current = viewport.scrollTop;
      setScrollTop(viewport.scrollTop);
    } else if (dropped > 0) {
      viewport.scrollTop = Math.max(0, viewport.scrollTop - dropped * ROW_HEIGHT);
      setScrollTop(viewport.scrollTop);
    }
  }, [version, setFollow]);

  const onScroll = useCallback(() => {
    const viewport = viewportRef.current;
    if (!viewport) return;
    setScrollTop(viewport.scrollTop);
    const atBottom = viewport.scrollHeight - viewport.clientHeight - viewport.scrollTop <= BOTTOM_SLACK;
    if (atBottom) autoTopRef.current = viewport.scrollTop;
    setFollow(atBottom);
  }, [setFollow]);

  // Scrolling up by wheel or keys pauses at once, before the next lines arrive.
  const onWheel = useCallback(
    (event: WheelEvent<HTMLDivElement>) => {
      if (event.deltaY < 0) setFollow(false);
    },
    [setFollow],
  );
  const onViewportKey = useCallback(
    (event: KeyboardEvent<HTMLDivElement>) => {
      if (event.key === 'ArrowUp' || event.key === 'PageUp' || event.key === 'Home') setFollow(false);
    },
    [setFollow],
  );

  const scrollToBottom = useCallback(() => {
    setFollow(true);
    const viewport = viewportRef.current;
    if (viewport) {
      viewport.scrollTop = viewport.scrollHeight;
      autoTopRef.current = viewport.scrollTop;
      setScrollTop(viewport.scrollTop);
    }
  }, [setFollow]);

  // Search: apply the query after a short pause in typing, scanning every held line once.
  useEffect(() => {
    const timer = window.setTimeout(() => setAppliedQuery(query), query ? 150 : 0);
    return () => window.clearTimeout(timer);
  }, [query]);

  useEffect(() => {
    const ring = ringRef.current;
    const matches: number[] = [];
    if (matcher) {
      for (let position = ring.start; position < ring.end; position++) {
        if (containsMatch(matcher, ring.at(position)?.plain ?? '')) matches.push(position);
      }
    }
    matchesRef.current = matches;
    setCurrentMatch(null);
    setVersion((v) => v + 1);
  }, [matcher]);

  const revealRow = useCallback(
    (position: number) => {
      const viewport = viewportRef.current;
      if (!viewport) return;
      setFollow(false);
      const rowTop = (position - ringRef.current.start) * ROW_HEIGHT;
      viewport.scrollTop = Math.max(0, rowTop - viewport.clientHeight / 2 + ROW_HEIGHT / 2);
      setScrollTop(viewport.scrollTop);
    },
    [setFollow],
  );

  const jump = useCallback(
    (direction: 1 | -1) => {
      const matches = matchesRef.current;
      if (matches.length === 0) return;
      let index: number;
      if (currentMatch === null) {
        // From what is in view: the first match from its top (or the last above its bottom, going back).
        const ring = ringRef.current;
        const viewTop = ring.start + Math.floor(scrollTop / ROW_HEIGHT);
        const viewBottom = ring.start + Math.floor((scrollTop + viewportHeight) / ROW_HEIGHT);
        index = direction === 1 ? lowerBound(matches, viewTop) : lowerBound(matches, viewBottom + 1) - 1;
      } else {
        const at = lowerBound(matches, currentMatch);
        // The current match may have been dropped meanwhile: then `at` is already the next one.
        index = matches[at] === currentMatch ? at + direction : direction === 1 ? at : at - 1;
      }
      index = ((index % matches.length) + matches.length) % matches.length;
      const position = matches[index]!;
      setCurrentMatch(position);
      revealRow(position);
    },
    [currentMatch, revealRow, scrollTop, viewportHeight],
  );

  const onSearchKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      if (query !== appliedQuery) setAppliedQuery(query);
      else jump(event.shiftKey ? -1 : 1);
    } else if (event.key === 'Escape' && query) {
      event.preventDefault();
      setQuery('');
    }
  };

  const startDownload = useCallback(async () => {
    downloadAbortRef.current?.abort();
    const controller = new AbortController();
    downloadAbortRef.current = controller;
    setDownload({ busy: true, lines: 0, error: null });
    try {
      await downloadStoredLog({
        taskId,
        fileName: downloadName ?? `run-${taskId}.log`,
        fetch: authorizedFetch,
        signal: controller.signal,
        onProgress: (lines) => setDownload((d) => (d.busy ? { ...d, lines } : d)),
      });
      if (!controller.signal.aborted) setDownload({ busy: false, lines: 0, error: null });
    } catch (error) {
      if (!controller.signal.aborted) setDownload({ busy: false, lines: 0, error: error instanceof Error ? error.message : String(error) });
    }
  }, [taskId, downloadName]);

  const ring = ringRef.current;
  const total = ring.size;
  const first = Math.max(ring.start, ring.start + Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(ring.end, ring.start + Math.ceil((scrollTop + viewportHeight) / ROW_HEIGHT) + OVERSCAN);
  const rows: ReactElement[] = [];
  for (let position = first; position < last; position++) {
    const line = ring.at(position);
    if (!line) continue;
    rows.push(
      <LogRow key={position} line={line} top={(position - ring.start) * ROW_HEIGHT} matcher={matcher} current={position === currentMatch} />,
    );
  }

  const matches = matchesRef.current;
  const matchIndex = currentMatch === null ? -1 : lowerBound(matches, currentMatch);
  const matchSummary = !appliedQuery
    ? ''
    : matches.length === 0
      ? 'No matches'
      : matchIndex >= 0 && matches[matchIndex] === currentMatch
        ? `${(matchIndex + 1).toLocaleString('en')} of ${matches.length.toLocaleString('en')}`
        : `${matches.length.toLocaleString('en')} ${matches.length === 1 ? 'match' : 'matches'}`;
  const newSincePause = follow ? 0 : Math.max(0, ring.end - pausedAtRef.current);
  const failed = status.phase === 'failed';

  return (
    <section className="live-log" aria-labelledby={`${id}-title`}>
      <div className="live-log-toolbar">
        <h2 id={`${id}-title`} className="live-log-title">
          Log
        </h2>
        <div className="live-log-search" role="search">
          <label htmlFor={`${id}-search`} className="visually-hidden">
            Search the log
          </label>
          <input
            id={`${id}-search`}
            type="search"
            placeholder="Search the log"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            onKeyDown={onSearchKey}
            aria-describedby={`${id}-matches`}
            aria-keyshortcuts="Enter Shift+Enter"
          />
          <button type="button" className="button icon-button" onClick={() => jump(-1)} disabled={matches.length === 0} aria-label="Previous match">
            <span aria-hidden="true">↑</span>
          </button>
          <button type="button" className="button icon-button" onClick={() => jump(1)} disabled={matches.length === 0} aria-label="Next match">
            <span aria-hidden="true">↓</span>
          </button>
          <span id={`${id}-matches`} className="live-log-matches" aria-live="polite">
            {matchSummary}
          </span>
        </div>
        <div className="actions">
          <button type="button" className="button" aria-pressed={follow} onClick={() => (follow ? setFollow(false) : scrollToBottom())}>
            {follow ? 'Following' : newSincePause > 0 ? `Follow (${newSincePause.toLocaleString('en')} new)` : 'Follow'}
          </button>
          <button type="button" className="button" onClick={() => void startDownload()} disabled={download.busy} aria-busy={download.busy}>
            {download.busy ? `Preparing download… ${download.lines ? download.lines.toLocaleString('en') + ' lines' : ''}` : 'Download log'}
          </button>
        </div>
      </div>
      <p className={`live-log-status${failed ? ' live-log-status-error' : ''}`}>
        {/* Only the state is announced; the line count changes every frame. */}
        <span role="status">{statusText(status, live)}</span>{' '}
        <span className="muted">
          {total.toLocaleString('en')} {total === 1 ? 'line' : 'lines'}
          {ring.start > 0
            ? `; ${ring.start.toLocaleString('en')} older lines dropped from view (only the last ${MAX_LINES.toLocaleString('en')} are kept here; “Download log” has them all)`
            : ''}
          .
        </span>
      </p>
      {download.error ? (
        <p className="field-error" role="alert">
          The log could not be downloaded: {download.error}
        </p>
      ) : null}
      <div
        ref={viewportRef}
        className="live-log-viewport"
        role="log"
        aria-live="off"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-help`}
        tabIndex={0}
        onScroll={onScroll}
        onWheel={onWheel}
        onKeyDown={onViewportKey}
      >
        <div className="live-log-spacer" style={{ height: total * ROW_HEIGHT }}>
          {rows}
        </div>
        {total === 0 ? <p className="live-log-empty muted">{status.phase === 'ended' ? 'This run printed nothing.' : 'No output yet.'}</p> : null}
      </div>
      <p id={`${id}-help`} className="visually-hidden">
        Scroll up to pause following; End resumes it. Arrow keys and Page Up or Page Down scroll.
      </p>
    </section>
  );
}

export default LiveLog;
