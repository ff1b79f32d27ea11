/** The Locust tool passes the load-tool contract; the real run needs Locust (skipped without it, required in CI). */
import { createNodeProcessRunner, describeLoadToolContract, locateEngineOnHost } from 'loadplane/plugin/testing';
import { locustEngine } from './engine.ts';
import { createLocustTool } from './locust-tool.ts';

// Found as an agent finds it: LOCUST_BIN, PATH, ~/.cache/loadplane/locust/<version>/bin/locust.
const locust = await locateEngineOnHost(locustEngine, { env: process.env });
const runner = createNodeProcessRunner();

describeLoadToolContract('locust', () => createLocustTool({ binary: locust.path, which: runner.which }), {
  goodScript: "from locust import HttpUser, task\n\nclass Visitor(HttpUser):\n    @task\n    def home(self):\n        self.client.get('/')\n",
  badScripts: [
    'echo hello',
    // Python, but no User class for Locust to run.
    'from locust import task\n\ndef home():\n    pass\n',
    // A syntax error: the def has no colon.
    'from locust import HttpUser, task\n\nclass Visitor(HttpUser):\n    @task\n    def home(self)\n        self.client.get("/")\n',
  ],
  realRun: {
    // One user makes exactly 10 requests, then stops the run itself (no load config: the script decides).
    script: (target) => `
from locust import HttpUser, task


class Contract(HttpUser):
    host = "${target}"

    @task
    def ten(self):
        for _ in range(10):
            self.client.get("/contract")
        print("contract run done")
        self.environment.runner.quit()
`,
    requests: 10,
    hitsTarget: true,
    logContains: 'contract run done',
    unavailable: locust.found ? null : locust.reason,
  },
});
