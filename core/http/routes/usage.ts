/** /usage: the workspace's use of its plan, and the deduction of one AI tool call (the MCP server's, per tool call). */
import { Elysia, t } from 'elysia';
import type { RouteDeps } from '../route-deps.ts';
import { requireCaller } from '../require-caller.ts';
import { bearerSecurity, errorResponses, Integer } from '../schemas/common.ts';
import { NoInput, refuseInput } from '../schemas/no-input.ts';

const Period = t.String({ description: "the UTC calendar month, 'YYYY-MM'", pattern: '^[0-9]{4}-[0-9]{2}$' });
const Count = Integer({ minimum: 0 });
const Limit = (what: string) => t.Nullable(Integer({ minimum: 0, description: `the plan's limit of ${what}; null: unlimited` }));

const AiToolCallDeducted = t.Object(
  {
    period: Period,
    used: Integer({ minimum: 1, description: 'calls counted this month, this one included' }),
    limit: Limit('calls per month'),
    remaining: t.Nullable(Integer({ minimum: 0, description: 'calls left this month; null: unlimited' })),
  },
  { title: 'AiToolCallDeducted' },
);

const Usage = t.Object(
  {
    period: Period,
    ai_tool_calls: t.Object({ used: Count, limit: Limit('calls per month') }, { description: 'AI (MCP) tool calls this month' }),
    machines: t.Object({ used: Count, limit: Limit('machines') }),
    tests: t.Object({ used: Count, limit: Limit('tests') }),
    storage: t.Object(
      {
        log_bytes: Integer({ minimum: 0, description: "UTF-8 bytes of the runs' stored log lines" }),
        metric_bytes: Integer({
          minimum: 0,
          description: "estimated bytes of the stored run metric points and OTLP points: rows × the average stored row size of the workspace's newest rows; indexes not counted",
        }),
      },
      { description: 'what the workspace keeps in the database' },
    ),
  },
  { title: 'Usage' },
);

export const usageRoutes = (deps: RouteDeps) =>
  new Elysia({ normalize: false, prefix: '/usage', detail: { tags: ['Usage'], security: bearerSecurity } })
    .use(requireCaller(deps.authenticate))
    .get('', ({ caller }) => deps.usage.report(caller), {
      response: { 200: Usage, 401: errorResponses[401] },
      detail: { summary: "The workspace's use this month: AI tool calls, machines and tests against the plan, and stored log and metric bytes" },
    })
    .post(
      '/ai-tool-calls',
      ({ caller, body, request }) => {
        refuseInput(body, request);
        return deps.usage.deductAiToolCall(caller);
      },
      {
        body: NoInput,
        response: { 200: AiToolCallDeducted, 400: errorResponses[400], 401: errorResponses[401], 429: errorResponses[429] },
        detail: {
          summary: 'Deduct one AI tool call from the monthly budget (any member, any token); 429 ai_budget_exhausted, with Retry-After, when used up',
          description:
            "The MCP server calls this before each tool call and runs the tool only on 200. The budget is the plan's per UTC calendar month; a refused call is not counted, and the count resets on the first of the next month, 00:00 UTC. The request takes no body (or {}).",
        },
      },
    );
