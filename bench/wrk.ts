/** Runs wrk against a loopback URL for a bounded time and parses its report (req/s, latency percentiles, errors). */
export interface WrkOptions {
  url: string;
  threads: number;
  connections: number;
  /** wrk's -d, e.g. "10s". */
  duration: string;
  headers?: Record<string, string>;
}

export interface WrkResult {
  command: string;
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  /** Milliseconds. */
  latency: { avg: number; max: number; p50: number; p75: number; p90: number; p99: number };
  /** Responses with a status of 400 or more (wrk's "Non-2xx or 3xx responses"). */
  non2xx: number;
  socketErrors: { connect: number; read: number; write: number; timeout: number };
  bytesRead: number;
  /** CPU seconds wrk itself used (user + system), from the child's resource usage. */
  wrkCpuSeconds: number;
  raw: string;
}

/** Loopback only: the benchmark must never send load anywhere else. */
function assertLoopback(url: string) {
  const host = new URL(url).hostname;
  if (host !== '127.0.0.1' && host !== 'localhost' && host !== '[::1]') {
    throw new Error(`refusing to send load to ${host}: benchmarks target loopback only`);
  }
}

export function wrkArgs(options: WrkOptions): string[] {
  const args = ['-t', String(options.threads), '-c', String(options.connections), '-d', options.duration, '--latency'];
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push('-H', `${name}: ${value}`);
  args.push(options.url);
  return args;
}

/** The command as a person would type it, with secrets (bearer tokens) shortened. */
export function printableCommand(options: WrkOptions): string {
  const headers = Object.entries(options.headers ?? {})
    .map(([name, value]) => ` -H "${name}: ${value.replace(/^(Bearer\s+).*$/i, '$1<jwt>')}"`)
    .join('');
  return `wrk -t${options.threads} -c${options.connections} -d${options.duration} --latency${headers} ${options.url}`;
}

export async function runWrk(options: WrkOptions): Promise<WrkResult> {
  assertLoopback(options.url);
  const seconds = parseDuration(options.duration);
  const child = Bun.spawn(['wrk', ...wrkArgs(options)], { stdout: 'pipe', stderr: 'pipe', timeout: (seconds + 30) * 1000 });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  if (code !== 0) throw new Error(`wrk exited with ${code ?? child.signalCode}:\n${stdout}${stderr}`);
  const cpu = child.resourceUsage()?.cpuTime.total ?? 0n;
  return { ...parseWrkOutput(stdout), command: printableCommand(options), wrkCpuSeconds: Number(cpu) / 1e6 };
}

const timeUnits: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const sizeUnits: Record<string, number> = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3, TB: 1024 ** 4 };

function parseDuration(duration: string): number {
  const match = /^(\d+(?:\.\d+)?)(s|m|h)?$/.exec(duration.trim());
  if (!match) throw new Error(`not a wrk duration: ${duration}`);
  return Number(match[1]) * ({ s: 1, m: 60, h: 3600 }[match[2] ?? 's'] ?? 1);
}

/** "1.23ms" -> 1.23, "456.00us" -> 0.456 */
function millis(text: string): number {
  const match = /^(\d+(?:\.\d+)?)(us|ms|s|m|h)$/.exec(text);
  if (!match) throw new Error(`not a wrk time: ${text}`);
  return Number(match[1]) * timeUnits[match[2]!]!;
}

function need(output: string, pattern: RegExp, what: string): RegExpExecArray {
  const match = pattern.exec(output);
  if (!match) throw new Error(`could not find ${what} in wrk's output:\n${output}`);
  return match;
}

export function parseWrkOutput(output: string): Omit<WrkResult, 'command' | 'wrkCpuSeconds'> {
  const percentile = (p: number) => millis(need(output, new RegExp(`^\\s+${p}%\\s+(\\S+)`, 'm'), `the ${p}% latency`)[1]!);
  const latencyLine = need(output, /^\s+Latency\s+(\S+)\s+\S+\s+(\S+)/m, 'the latency line');
  const totals = need(output, /(\d+) requests in (\S+), (\d+(?:\.\d+)?)(B|KB|MB|GB|TB) read/, 'the request total');
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  return {
    requests: Number(totals[1]),
    seconds: millis(totals[2]!) / 1000,
    requestsPerSecond: Number(need(output, /Requests\/sec:\s+(\d+(?:\.\d+)?)/, 'Requests/sec')[1]),
    latency: {
      avg: millis(latencyLine[1]!),
      max: millis(latencyLine[2]!),
      p50: percentile(50),
      p75: percentile(75),
      p90: percentile(90),
      p99: percentile(99),
    },
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0),
    socketErrors: {
      connect: Number(socket?.[1] ?? 0),
      read: Number(socket?.[2] ?? 0),
      write: Number(socket?.[3] ?? 0),
      timeout: Number(socket?.[4] ?? 0),
    },
    bytesRead: Math.round(Number(totals[3]) * sizeUnits[totals[4]!]!),
    raw: output,
  };
}
