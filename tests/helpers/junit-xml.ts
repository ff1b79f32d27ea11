/** Reads a JUnit XML report with a real XML parser (Python's xml.etree, which refuses anything malformed). */
import { spawnSync } from 'node:child_process';

export interface ParsedCase {
  name: string;
  classname: string;
  time: string;
  failure: { message: string; type: string; text: string } | null;
}

export interface ParsedReport {
  suites: { tests: string; failures: string; time: string; timestamp: string };
  suite: { name: string; tests: string; failures: string; errors: string; time: string; timestamp: string };
  properties: Record<string, string>;
  cases: ParsedCase[];
  out: string;
}

/** The one testsuite of `xml` (anything else is an error), its properties and testcases. */
export function parseJunit(xml: string): ParsedReport {
  const script = `
import json, sys, xml.etree.ElementTree as ET
root = ET.fromstring(sys.stdin.buffer.read())
assert root.tag == "testsuites", root.tag
suites = root.findall("testsuite")
assert len(suites) == 1, len(suites)
suite = suites[0]
print(json.dumps({
  "suites": {k: root.get(k) for k in ("tests", "failures", "time", "timestamp")},
  "suite": {k: suite.get(k) for k in ("name", "tests", "failures", "errors", "time", "timestamp")},
  "properties": {p.get("name"): p.get("value") for p in suite.find("properties")},
  "cases": [{"name": c.get("name"), "classname": c.get("classname"), "time": c.get("time"),
             "failure": None if c.find("failure") is None else {"message": c.find("failure").get("message"), "type": c.find("failure").get("type"), "text": c.find("failure").text}}
            for c in suite.findall("testcase")],
  "out": suite.find("system-out").text,
}))
`;
  const run = spawnSync('python3', ['-c', script], { input: xml, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`python3 could not parse the report: ${run.stderr}\n${xml}`);
  return JSON.parse(run.stdout) as ParsedReport;
}
