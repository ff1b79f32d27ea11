/** /machines: list, read, register, calibrate and delete the caller's workspace's machines. */
import { Elysia, t } from 'elysia';
import { PageQuery, pagedList } from '../paging.ts';
import type { RouteDeps } from '../route-deps.ts';
import { requireCaller } from '../require-caller.ts';
import { bearerSecurity, errorResponses, IdParams } from '../schemas/common.ts';
import { MachineCreate, MachineView, toMachineView } from '../schemas/machine.ts';
import { NoInput, refuseInput } from '../schemas/no-input.ts';

export const machineRoutes = (deps: RouteDeps) =>
  new Elysia({ normalize: false, prefix: '/machines', detail: { tags: ['Machines'], security: bearerSecurity } })
    .use(requireCaller(deps.authenticate))
    .get(
      '',
      (context) => pagedList(context, (page) => deps.machines.list(context.caller, page), toMachineView),
      {
        query: PageQuery,
        response: { 200: t.Array(MachineView), 400: errorResponses[400], 401: errorResponses[401] },
        detail: { summary: "List the workspace's machines, newest first" },
      },
    )
    .get('/:id', async ({ caller, params }) => toMachineView(await deps.machines.get(caller, params.id)), {
      params: IdParams,
      response: { 200: MachineView, 401: errorResponses[401], 404: errorResponses[404] },
      detail: { summary: 'One machine: status, hardware, agent version, tools, region and benchmark capacity' },
    })
    .post(
      '',
      async ({ caller, body, set }) => {
        const machine = await deps.machines.create(caller, body);
        set.status = 201;
        return toMachineView(machine);
      },
      {
        body: MachineCreate,
        response: {
          201: MachineView,
          400: errorResponses[400],
          401: errorResponses[401],
          409: errorResponses[409],
          413: errorResponses[413],
        },
        detail: { summary: 'Register a machine (hostname unique within the workspace)' },
      },
    )
    .post(
      '/:id/calibrate',
      async ({ caller, params, body, request, set }) => {
        refuseInput(body, request);
        const machine = await deps.machines.calibrate(caller, params.id);
        set.status = 202;
        return toMachineView(machine);
      },
      {
        params: IdParams,
        body: NoInput,
        response: {
          202: MachineView,
          400: errorResponses[400],
          401: errorResponses[401],
          403: errorResponses[403],
          404: errorResponses[404],
          409: errorResponses[409],
        },
        detail: {
          summary: "Measure the machine's capacity again",
          description:
            "The machine's agent runs a short calibration (the http tool against a loopback target of its own) once it runs no task; a run arriving meanwhile cancels it. The new figure replaces benchmark_capacity when it arrives (GET /machines/{id}). 409 when no agent is connected. The request takes no body (or {}).",
        },
      },
    )
    .delete(
      '/:id',
      async ({ caller, params, set }) => {
        await deps.machines.remove(caller, params.id);
        set.status = 204;
      },
      {
        params: IdParams,
        response: { 204: t.Void(), 401: errorResponses[401], 404: errorResponses[404] },
        detail: { summary: 'Delete a machine' },
      },
    );
