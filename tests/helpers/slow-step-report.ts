/**
 * Awaits a cleanup step and, when it is still pending after a while, prints which one (an `error:` line, which CI's
 * failure summary quotes beside a hook that timed out). It never fails nor cuts the step short: it only names a hang.
 */
export async function reportingSlowStep<T>(label: string | (() => string), step: () => Promise<T>, afterMillis = 20_000): Promise<T> {
  const started = Date.now();
  const timer = setTimeout(() => console.error(`error: ${typeof label === 'string' ? label : label()} still pending after ${Math.round((Date.now() - started) / 1000)} s`), afterMillis);
  (timer as { unref?: () => void }).unref?.();
  try {
    return await step();
  } finally {
    clearTimeout(timer);
  }
}
