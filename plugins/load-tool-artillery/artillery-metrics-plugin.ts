/**
 * The Artillery plugin the load tool ships into every run's work directory (artillery-plugin-loadplane.js, enabled
 * through ARTILLERY_PLUGINS): in each Artillery worker it hooks every scenario's requests, aggregates their latencies
 * into the buckets of our LatencyHistogram and writes one `LOADPLANE_METRICS {json}` line per interval.
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
const STARTED = Symbol('loadplaneStarted');

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

function record(milliseconds, failed) {
  const at = Date.now();
  if (!Number.isFinite(milliseconds) || milliseconds < 0) milliseconds = 0;
  const micros = Math.min(Math.round(milliseconds * 1000), MAX_TRACKABLE_MICROS);
  const index = bucketIndex(micros);
  const w = window;
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

function flush() {
  const w = window;
  window = newWindow();
  if (w.first === null) return;
  const line = PREFIX + JSON.stringify({ requests: w.requests, errors: w.errors, startedAt: w.first, endedAt: w.last, histogram: encode(w) });
  // One synchronous write per line on the process's stdout, from whichever worker thread: lines never interleave.
  fs.writeSync(1, line + '\n');
}

function loadplaneBeforeRequest(req, _context, _events, done) {
  req[STARTED] = performance.now();
  return done();
}

function loadplaneAfterResponse(req, res, _context, _events, done) {
  // Artillery's own http.response_time: time to the first byte of the response.
  const firstByte = res && res.timings && res.timings.phases ? res.timings.phases.firstByte : undefined;
  const latency = Number.isFinite(firstByte) ? firstByte : performance.now() - (req[STARTED] || performance.now());
  record(latency, !res || res.statusCode >= 400);
  return done();
}

function loadplaneOnError(_error, req, _context, _events, done) {
  // A request that got no response (refused, reset, timed out): an error, timed from its start.
  record(performance.now() - (req && req[STARTED] ? req[STARTED] : performance.now()), true);
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
