/**
 * The Python module the Locust plugin ships into every run's work directory (loadplane_metrics.py): an
 * events.request hook that aggregates each request into the buckets of our LatencyHistogram inside Locust and prints
 * one `LOADPLANE_METRICS {json}` line per interval, so no file or line grows with every request. Per request name
 * (Locust's `name`, the path unless the script names it) it keeps the same figures and its failures by kind and code,
 * printed first as one `LOADPLANE_ENDPOINT {json}` line per name (at most 200 names a run, later ones as `(other)`).
 */
export const locustMetricsModule = 'loadplane_metrics.py';

/** The line prefix the hook prints its snapshots under. */
export const locustMetricsPrefix = 'LOADPLANE_METRICS ';

export const locustMetricsHook = String.raw`"""Loadplane's Locust hook: every request into a log-linear latency histogram, one snapshot line per interval.

Shipped by the load-tool-locust plugin next to the user's locustfile. It listens on events.request and aggregates
in the Locust process (no file or line per request); every LOADPLANE_METRICS_INTERVAL seconds (default 1) and once
when Locust quits it prints one line LOADPLANE_METRICS {json} on stdout, which the agent reads and merges.
The buckets are those of Loadplane's LatencyHistogram (core/domain/metrics/histogram.ts): microseconds, 2048 linear
sub-buckets, then 1024 per power of two, so the agent merges them exactly. The encoding is the same too (format v1:
base64 of varint pairs, index delta and count).
"""
import base64
import json
import os
import sys
import time

import gevent
from locust import events

SUB_BUCKET_BITS = 11
SUB_BUCKET_COUNT = 1 << SUB_BUCKET_BITS
HALF_COUNT = SUB_BUCKET_COUNT >> 1
MAX_TRACKABLE_MICROS = 3_600_000_000
PREFIX = "LOADPLANE_METRICS "
ENDPOINT_PREFIX = "LOADPLANE_ENDPOINT "
MAX_NAMES = 200
OTHER = "(other)"
MAX_FAILURES = 100
MAX_MESSAGE = 300


def bucket_index(micros):
    if micros < SUB_BUCKET_COUNT:
        return micros
    exponent = micros.bit_length() - 1 - (SUB_BUCKET_BITS - 1)
    mantissa = micros >> exponent  # in [1024, 2047]
    return SUB_BUCKET_COUNT + (exponent - 1) * HALF_COUNT + (mantissa - HALF_COUNT)


class Window:
    def __init__(self):
        self.counts = {}
        self.count = 0
        self.min = None
        self.max = 0
        self.sum = 0
        self.requests = 0
        self.errors = 0
        self.first = None
        self.last = None

    def record(self, milliseconds, failed, at_ms):
        if milliseconds is None or milliseconds != milliseconds or milliseconds < 0:
            milliseconds = 0
        # Half up, as JavaScript's Math.round (Python's round() would round half to even).
        micros = min(int(milliseconds * 1000 + 0.5), MAX_TRACKABLE_MICROS)
        index = bucket_index(micros)
        self.counts[index] = self.counts.get(index, 0) + 1
        self.count += 1
        self.sum += micros
        if self.min is None or micros < self.min:
            self.min = micros
        if micros > self.max:
            self.max = micros
        self.requests += 1
        if failed:
            self.errors += 1
        if self.first is None or at_ms < self.first:
            self.first = at_ms
        if self.last is None or at_ms > self.last:
            self.last = at_ms

    def encode(self):
        out = bytearray()
        previous = 0
        for index in sorted(self.counts):
            for value in (index - previous, self.counts[index]):
                while value >= 0x80:
                    out.append((value & 0x7F) | 0x80)
                    value >>= 7
                out.append(value)
            previous = index
        return {
            "v": 1,
            "buckets": base64.b64encode(bytes(out)).decode("ascii"),
            "count": self.count,
            "min": self.min or 0,
            "max": self.max,
            "sum": self.sum,
        }


window = Window()
# Per request name: this interval's window, and its failures {(kind, code): [count, message]}.
endpoints = {}
failures = {}
names = set()


def endpoint_name(name):
    name = (str(name) if name is not None else "").strip()[:200] or "(unnamed)"
    if name in names or name == OTHER:
        return name
    if len(names) >= MAX_NAMES:
        return OTHER
    names.add(name)
    return name


def failure_of(exception, response):
    """(kind, code, message): a status of 400 or more is kind status; no answer (status 0) network; else check."""
    status = getattr(response, "status_code", None) if response is not None else None
    message = " ".join(str(exception).split())[:MAX_MESSAGE] or type(exception).__name__
    if isinstance(status, int) and status >= 400:
        return "status", str(status), message
    if status == 0 or status is None and response is None:
        return "network", type(exception).__name__, message
    return "check", type(exception).__name__, message


def summary(current):
    return {"requests": current.requests, "errors": current.errors, "startedAt": current.first, "endedAt": current.last,
            "histogram": current.encode()}


def write(line):
    # One write per line, flushed at once: stdout is a pipe to the agent (block-buffered otherwise).
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def flush():
    global window, endpoints, failures
    current, window = window, Window()
    by_name, endpoints = endpoints, {}
    failed, failures = failures, {}
    if current.first is None:
        return
    # The endpoints first, one line each (so no line grows with the number of names), then the machine's snapshot.
    for name, one in by_name.items():
        entry = summary(one)
        entry["name"] = name
        entry["failures"] = [
            {"kind": kind, "code": code, "message": message, "count": count}
            for (of, kind, code), (count, message) in failed.items() if of == name
        ]
        write(ENDPOINT_PREFIX + json.dumps(entry, separators=(",", ":")))
    write(PREFIX + json.dumps(summary(current), separators=(",", ":")))


@events.request.add_listener
def on_request(name=None, response_time=None, exception=None, start_time=None, response=None, **_kwargs):
    # The request's end, in epoch ms: its start (seconds, when Locust gives it) plus its duration.
    at = int((start_time * 1000 + (response_time or 0)) if start_time else time.time() * 1000)
    window.record(response_time, exception is not None, at)
    kept = endpoint_name(name)
    one = endpoints.get(kept)
    if one is None:
        one = endpoints[kept] = Window()
    one.record(response_time, exception is not None, at)
    if exception is None:
        return
    kind, code, message = failure_of(exception, response)
    key = (kept, kind, code)
    if key not in failures and len(failures) >= MAX_FAILURES:
        key, message = (kept, kind, OTHER), "more kinds of errors than a report keeps"
    known = failures.get(key)
    failures[key] = [known[0] + 1, known[1]] if known else [1, message]


def interval_loop(seconds):
    while True:
        gevent.sleep(seconds)
        flush()


@events.init.add_listener
def on_init(environment, **_kwargs):
    seconds = float(os.environ.get("LOADPLANE_METRICS_INTERVAL", "1") or "1")
    gevent.spawn(interval_loop, max(seconds, 0.1))


@events.quitting.add_listener
def on_quitting(**_kwargs):
    # The last requests of the run (and of a cancelled run: Locust quits on SIGTERM too).
    flush()


@events.quit.add_listener
def on_quit(**_kwargs):
    # Requests that ended while Locust stopped its users, after the quitting event.
    flush()
`;
