/** When a failed webhook delivery is tried again: after 1 min, 5 min, 30 min and 2 h; the fifth failure is final. */

export const maxWebhookAttempts = 5;
export const retryDelaysMillis = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000] as const;

/** The next attempt's time after `attemptsMade` failed attempts, or null when the delivery is finally failed. */
export function nextAttemptAfterFailure(attemptsMade: number, failedAt: Date): Date | null {
  if (attemptsMade >= maxWebhookAttempts) return null;
  const delay = retryDelaysMillis[attemptsMade - 1];
  return delay === undefined ? null : new Date(failedAt.getTime() + delay);
}
