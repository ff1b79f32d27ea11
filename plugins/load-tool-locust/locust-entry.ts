/**
 * The Python entry Locust runs (`-f loadplane_locustfile.py`): the metrics hook, then every name of the user's locustfile,
 * and for a load config of stages a LoadTestShape that ramps between them (in place of any shape the script has).
 */
import { type LoadConfig, parseDuration } from 'loadplane/plugin';
import { locustMetricsModule } from './locust-metrics-hook.ts';

export const locustScriptFile = 'locustfile.py';
export const locustEntryFile = 'loadplane_locustfile.py';

// Every name of the locustfile, as Locust would see it loading the file itself (an `import *` would drop _names and
// follow __all__).
const header = `# Loadplane's entry for this run: the metrics hook, then the user's locustfile (${locustScriptFile}).
import ${locustMetricsModule.replace(/\.py$/, '')}  # noqa: F401  (registers the request hook)
import ${locustScriptFile.replace(/\.py$/, '')} as _lp_user_module

globals().update({_lp_k: _lp_v for _lp_k, _lp_v in vars(_lp_user_module).items() if not _lp_k.startswith("__")})
`;

/** Stages as [seconds, target] pairs; a stage ramps linearly from the previous target (0 first) to its own. */
export function stageSeconds(stages: NonNullable<LoadConfig['stages']>): [number, number][] {
  return stages.map((stage) => [parseDuration(stage.duration, 'stages.duration') / 1000, stage.target]);
}

function shape(stages: [number, number][]): string {
  return `
import math as _lp_math
from locust import LoadTestShape as _LpLoadTestShape

# The load config's stages replace any shape the locustfile defines: one shape per run, and the config rules.
for _lp_name, _lp_value in list(globals().items()):
    if isinstance(_lp_value, type) and issubclass(_lp_value, _LpLoadTestShape) and not getattr(_lp_value, "abstract", True):
        del globals()[_lp_name]

_LP_STAGES = ${JSON.stringify(stages)}


class LoadplaneStages(_LpLoadTestShape):
    """This machine's share of the load config: linear ramps between the stages' targets, then stop."""

    def tick(self):
        elapsed = self.get_run_time()
        start_users, stage_start = 0, 0.0
        for seconds, target in _LP_STAGES:
            if elapsed < stage_start + seconds:
                users = start_users + (target - start_users) * (elapsed - stage_start) / seconds
                users = int(_lp_math.floor(users + 0.5))
                # Reach the tick's count within about a second, up or down.
                current = self.runner.user_count if self.runner else 0
                return users, max(1.0, float(abs(users - current)))
            start_users, stage_start = target, stage_start + seconds
        return None
`;
}

export function locustEntry(stages?: [number, number][]): string {
  return stages ? header + shape(stages) : header;
}
