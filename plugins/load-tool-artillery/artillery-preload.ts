/**
 * A module Node loads before Artillery (`NODE_OPTIONS=--require ./loadplane-preload.js`): it points Artillery's plugin
 * path at the work directory (which command() cannot name) and replaces its telemetry client. Artillery sends an
 * event even with ARTILLERY_DISABLE_TELEMETRY set, and on a load generator that reaches only its targets its exit then
 * waits about 10 s for a DNS failure.
 */
export const artilleryPreloadFile = 'loadplane-preload.js';

// engine-side source: begin
export const artilleryPreload = String.raw`'use strict';
// Loadplane's preload for Artillery: plugins from the work directory, no telemetry client.
const Module = require('module');
process.env.ARTILLERY_PLUGIN_PATH = [process.cwd(), process.env.ARTILLERY_PLUGIN_PATH].filter(Boolean).join(':');
class NoTelemetry {
  capture() {}
  async shutdownAsync() {}
  async shutdown() {}
}
const load = Module._load;
Module._load = function (request) {
  if (request === 'posthog-node') return { PostHog: NoTelemetry };
  return load.apply(this, arguments);
};
`;
// engine-side source: end
