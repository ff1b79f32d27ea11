/**
 * The monthly AI tool-call budget: every tools/call is counted by the service (POST /usage/ai-tool-calls, for the
 * caller's workspace) before it runs. An exhausted budget answers 429 `ai_budget_exhausted`, which stops the call.
 */
import type { Logger } from 'loadplane/plugin';
import { RestError, type RestClient } from './rest-client.ts';

export interface BudgetState {
  period: string;
  used: number;
  limit: number | null;
  remaining: number | null;
}

export const budgetPath = '/usage/ai-tool-calls';

/** A service without the budget route (an older version, over stdio) counts nothing; said once, not per call. */
let saidUncounted = false;

/** Counts one call; throws the REST error (429 ai_budget_exhausted among them) when the service refuses it. */
export async function chargeToolCall(ctx: { rest: RestClient; logger: Logger }): Promise<BudgetState | null> {
  try {
    return await ctx.rest.send<BudgetState>('POST', budgetPath);
  } catch (error) {
    // Only "no such route" (404 not_found from the router, 405): every other refusal is the budget's, or the token's.
    if (error instanceof RestError && (error.status === 405 || (error.status === 404 && error.code === 'not_found'))) {
      if (!saidUncounted) {
        saidUncounted = true;
        ctx.logger.warn('the service has no AI tool-call budget route: tool calls are not counted', { path: `/api/v1${budgetPath}` });
      }
      return null;
    }
    throw error;
  }
}
