/**
 * Whether a script is an Artillery test Loadplane can run, checked on the server without Artillery: YAML (or JSON)
 * with `config.target`, phases Artillery understands, and scenarios with a flow of steps. A test is one file, so a
 * script that names other files (a processor, a payload CSV) is refused here rather than failing on the agent.
 */
import { parse } from 'yaml';

type Json = Record<string, unknown>;
const isMap = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function parseScript(script: string): { value: unknown } | { error: string } {
  try {
    // Artillery reads scripts with js-yaml's safeLoad: plain YAML 1.1 data, no custom tags.
    return { value: parse(script, { prettyErrors: false, uniqueKeys: false }) };
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0]! : String(error);
    return { error: `the script is not valid YAML: ${message}` };
  }
}

function checkPhases(phases: unknown): string | null {
  if (phases === undefined) return null;
  if (!Array.isArray(phases) || phases.length === 0) return 'config.phases must be a non-empty list';
  for (const [index, phase] of phases.entries()) {
    if (!isMap(phase)) return `config.phases[${index}] must be a mapping`;
    if (phase.duration === undefined && phase.pause === undefined) return `config.phases[${index}] needs a duration (or pause)`;
  }
  return null;
}

function checkScenarios(scenarios: unknown): string | null {
  if (!Array.isArray(scenarios) || scenarios.length === 0) return 'an Artillery script needs scenarios: a non-empty list of scenarios, each with a flow';
  for (const [index, scenario] of scenarios.entries()) {
    if (!isMap(scenario)) return `scenarios[${index}] must be a mapping`;
    // Other engines (playwright, socketio...) describe their scenarios their own way.
    if (scenario.engine !== undefined && scenario.engine !== 'http') continue;
    if (!Array.isArray(scenario.flow) || scenario.flow.length === 0) return `scenarios[${index}] needs a flow: a non-empty list of steps`;
    for (const [step, action] of scenario.flow.entries()) {
      if (!isMap(action) || Object.keys(action).length === 0) return `scenarios[${index}].flow[${step}] must be a step such as get: {url: /path}`;
    }
  }
  return null;
}

/** Null when the script can run, else a message for a 400. */
export function validateArtilleryScript(script: string): string | null {
  if (typeof script !== 'string' || script.trim().length === 0) return 'script must not be empty';
  if (script.includes('\0')) return 'script must be text: it contains a NUL byte';
  const parsed = parseScript(script);
  if ('error' in parsed) return parsed.error;
  const document = parsed.value;
  if (!isMap(document)) return 'an Artillery script is a YAML (or JSON) mapping with config and scenarios';
  if (!isMap(document.config)) return 'an Artillery script needs a config section (config: {target: http://..., phases: [...]})';
  const { config } = document;
  if (typeof config.target !== 'string' || config.target.trim() === '') return 'config.target must be the URL the scenarios run against';
  const phases = checkPhases(config.phases);
  if (phases) return phases;
  if (config.processor !== undefined) return 'config.processor names a file beside the script; a Loadplane test is one script, so processors cannot be loaded';
  if (config.payload !== undefined) return 'config.payload names CSV files beside the script; a Loadplane test is one script, so payload files cannot be loaded';
  return checkScenarios(document.scenarios);
}
