/**
 * The Artillery plugin the load tool ships into every run's work directory (artillery-plugin-loadplane.js, enabled
 * through ARTILLERY_PLUGINS): in each Artillery worker it hooks every scenario's requests, aggregates their latencies
 * into the buckets of our LatencyHistogram and writes one `LOADPLANE_METRICS {json}` line per interval. Per request
 * name (the request's `name`, else its URL as the script writes it) the same figures and its failures by kind and code,
 * one `LOADPLANE_ENDPOINT {json}` line each before the snapshot (at most 200 names a worker, later ones `(other)`).
 */
export const artilleryPluginName = 'loadplane';
export const artilleryPluginFile = `artillery-plugin-${artilleryPluginName}.js`;

/** The line prefix the plugin writes its snapshots under. */
export const artilleryMetricsPrefix = 'LOADPLANE_METRICS ';

// engine-side source: begin
export const artilleryMetricsPlugin = String.raw`// Loadplane's Artillery plugin: every HTTP request into a log-linear latency histogram, one snapshot line per interval.
//
// Shipped by the load-tool-artillery plugin into each run's work directory and enabled through ARTILLERY_PLUGINS. In
// each Artillery worker thread it adds beforeRequest/afterResponse/onError hooks to every scenario and aggregates
// there (no file or line per request); every LOADPLANE_METRICS_INTERVAL seconds (default 1) and when the worker
// stops it writes one line 'LOADPLANE_METRICS {json}' to stdout, which the agent reads and merges. The buckets and
// their encoding are those of Loadplane's LatencyHistogram (core/domain/metrics/histogram.ts).
'use strict';
const fs = require('fs');

const SUB_BUCKET_BITS = 11;
const SUB_BUCKET_COUNT = 1 << SUB_BUCKET_BITS;
const HALF_COUNT = SUB_BUCKET_COUNT >> 1;
const MAX_TRACKABLE_MICROS = 3600000000;
const PREFIX = 'LOADPLANE_METRICS ';
const ENDPOINT_PREFIX = 'LOADPLANE_ENDPOINT ';
const STARTED = Symbol('loadplaneStarted');
const NAME = Symbol('loadplaneName');
const MAX_NAMES = 200;
const OTHER = '(other)';
const MAX_FAILURES = 100;
const MAX_MESSAGE = 300;

function bucketIndex(micros) {
  if (micros < SUB_BUCKET_COUNT) return micros;
  const exponent = Math.floor(Math.log2(micros)) - (SUB_BUCKET_BITS - 1);
  const mantissa = Math.floor(micros / 2 ** exponent);
  return SUB_BUCKET_COUNT + (exponent - 1) * HALF_COUNT + (mantissa - HALF_COUNT);
}

function newWindow() {
  return { counts: new Map(), count: 0, min: Infinity, max: 0, sum: 0, requests: 0, errors: 0, first: null, last: null };
}

let window = newWindow();
// Per request name: this interval's window; failures by name, kind and code; every name kept so far.
let endpoints = new Map();
let failures = new Map();
const names = new Set();

function endpointName(req, context) {
  let url = String((req && req.url) || '');
  // The URL as the script gave it: without the target's origin when it has one (Artillery made it absolute).
  const target = context && context.vars && typeof context.vars.target === 'string' ? context.vars.target.replace(/\/+$/, '') : '';
  if (target && url.startsWith(target)) url = url.slice(target.length) || '/';
  const name = String((req && req.name) || url).trim().slice(0, 200) || '(unnamed)';
  if (names.has(name) || name === OTHER) return name;
  if (names.size >= MAX_NAMES) return OTHER;
  names.add(name);
  return name;
}

function record(milliseconds, failed, name, failure) {
  const at = Date.now();
  if (!Number.isFinite(milliseconds) || milliseconds < 0) milliseconds = 0;
  const micros = Math.min(Math.round(milliseconds * 1000), MAX_TRACKABLE_MICROS);
  add(window, micros, failed, at);
  let one = endpoints.get(name);
  if (!one) endpoints.set(name, (one = newWindow()));
  add(one, micros, failed, at);
  if (!failure) return;
  let key = JSON.stringify([name, failure.kind, failure.code]);
  let message = String(failure.message || '').replace(/\s+/g, ' ').slice(0, MAX_MESSAGE);
  if (!failures.has(key) && failures.size >= MAX_FAILURES) {
    key = JSON.stringify([OTHER, failure.kind, OTHER]);
    message = 'more kinds of errors than a report keeps';
  }
  const known = failures.get(key);
  if (known) known.count++;
  else failures.set(key, { kind: failure.kind, code: String(failure.code), message, count: 1 });
}

function add(w, micros, failed, at) {
  const index = bucketIndex(micros);
  w.counts.set(index, (w.counts.get(index) || 0) + 1);
  w.count++;
  w.sum += micros;
  if (micros < w.min) w.min = micros;
  if (micros > w.max) w.max = micros;
  w.requests++;
  if (failed) w.errors++;
  if (w.first === null || at < w.first) w.first = at;
  if (w.last === null || at > w.last) w.last = at;
}

function encode(w) {
  const bytes = [];
  const varint = (value) => {
    while (value >= 0x80) {
      bytes.push((value % 0x80) | 0x80);
      value = Math.floor(value / 0x80);
    }
    bytes.push(value);
  };
  let previous = 0;
  for (const index of [...w.counts.keys()].sort((a, b) => a - b)) {
    varint(index - previous);
    varint(w.counts.get(index));
    previous = index;
  }
  return { v: 1, buckets: Buffer.from(bytes).toString('base64'), count: w.count, min: w.count ? w.min : 0, max: w.max, sum: w.sum };
}

const snapshotOf = (w) => ({ requests: w.requests, errors: w.errors, startedAt: w.first, endedAt: w.last, histogram: encode(w) });

function flush() {
  const w = window;
  const byName = endpoints;
  const failed = failures;
  window = newWindow();
  endpoints = new Map();
  failures = new Map();
  if (w.first === null) return;
  // One synchronous write per line on the process's stdout, from whichever worker thread: lines never interleave.
  // The endpoints first, one line each, then the worker's snapshot.
  for (const [name, one] of byName) {
    const own = [...failed].filter(([key]) => JSON.parse(key)[0] === name).map(([, failure]) => failure);
    fs.writeSync(1, ENDPOINT_PREFIX + JSON.stringify({ name, ...snapshotOf(one), failures: own }) + '\n');
  }
  fs.writeSync(1, PREFIX + JSON.stringify(snapshotOf(w)) + '\n');
}

function loadplaneBeforeRequest(req, context, _events, done) {
  req[STARTED] = performance.now();
  // Named here, where the URL is still as the script wrote it (templates unresolved: one name for /items/{{ id }}).
  req[NAME] = endpointName(req, context);
  return done();
}

function loadplaneAfterResponse(req, res, context, _events, done) {
  // Artillery's own http.response_time: time to the first byte of the response.
  const firstByte = res && res.timings && res.timings.phases ? res.timings.phases.firstByte : undefined;
  const latency = Number.isFinite(firstByte) ? firstByte : performance.now() - (req[STARTED] || performance.now());
  const failed = !res || res.statusCode >= 400;
  const status = res ? res.statusCode : 0;
  record(latency, failed, req[NAME] || endpointName(req, context), failed ? { kind: 'status', code: String(status), message: 'status ' + status } : null);
  return done();
}

function loadplaneOnError(error, req, context, _events, done) {
  // A request that got no response (refused, reset, timed out): an error, timed from its start.
  const code = (error && (error.code || error.name)) || 'Error';
  const failure = { kind: 'network', code: String(code), message: (error && error.message) || String(code) };
  record(performance.now() - (req && req[STARTED] ? req[STARTED] : performance.now()), true, (req && req[NAME]) || endpointName(req, context), failure);
  return done();
}

function LoadplanePlugin(script) {
  // Artillery loads plugins in its main thread too: only the workers send requests.
  if (typeof process.env.LOCAL_WORKER_ID === 'undefined') return;
  if (!script.config.processor) script.config.processor = {};
  Object.assign(script.config.processor, { loadplaneBeforeRequest, loadplaneAfterResponse, loadplaneOnError });
  for (const scenario of script.scenarios || []) {
    scenario.beforeRequest = [].concat(scenario.beforeRequest || [], 'loadplaneBeforeRequest');
    scenario.afterResponse = [].concat(scenario.afterResponse || [], 'loadplaneAfterResponse');
    scenario.onError = [].concat(scenario.onError || [], 'loadplaneOnError');
  }
  const seconds = Number(process.env.LOADPLANE_METRICS_INTERVAL || '1') || 1;
  const timer = setInterval(flush, Math.max(seconds, 0.1) * 1000);
  timer.unref();
  process.on('exit', flush);
}

LoadplanePlugin.prototype.cleanup = function (done) {
  flush();
  done(null);
};

module.exports = { Plugin: LoadplanePlugin };
`;
// engine-side source: end
