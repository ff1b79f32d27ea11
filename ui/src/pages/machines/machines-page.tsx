/** The machines page (/machines): status, hostname, region, hardware, tools with versions, capacity; add a machine; delete one. */
import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { machinesQuery } from '../../api/queries';
import { EmptyState } from '../../components/common/empty-state';
import { ErrorNotice } from '../../components/common/error-notice';
import { Loading } from '../../components/common/loading';
import { PageHeader } from '../../components/common/page-header';
import { AddMachinePanel } from './add-machine-panel';
import { MachineRow } from './machine-row';

export default function MachinesPage() {
  const queryClient = useQueryClient();
  const machines = useQuery({ ...machinesQuery, refetchInterval: 10_000 });
  const [adding, setAdding] = useState(false);
  const remove = useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/api/v1/machines/{id}', { params: { path: { id } } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['machines'] }),
  });

  const list = machines.data ?? [];
  const online = list.filter((m) => m.status !== 'offline').length;
  return (
    <>
      <PageHeader
        title="Machines"
        description="The load generators of this workspace. A run goes to a free machine that offers its test's tool."
        actions={
          adding ? null : (
            <button type="button" className="button primary" onClick={() => setAdding(true)}>
              Add a machine
            </button>
          )
        }
      />
      {adding ? <AddMachinePanel onClose={() => setAdding(false)} /> : null}
      <ErrorNotice error={remove.error} title="The machine was not deleted" />
      {machines.isPending ? (
        <Loading label="Loading machines…" />
      ) : !machines.data ? (
        <ErrorNotice error={machines.error} />
      ) : list.length === 0 ? (
        <EmptyState title="No machines yet">
          <p>Tests run on machines where a Loadplane agent runs. Add one: create its token here and start the agent with it.</p>
          {!adding ? (
            <button type="button" className="button primary" onClick={() => setAdding(true)}>
              Add a machine
            </button>
          ) : null}
        </EmptyState>
      ) : (
        <div className="table-wrap">
          <table>
            <caption>
              {list.length} {list.length === 1 ? 'machine' : 'machines'}, {online} online or busy
            </caption>
            <thead>
              <tr>
                <th scope="col">Machine</th>
                <th scope="col">Status</th>
                <th scope="col">Region</th>
                <th scope="col">Hardware</th>
                <th scope="col">Tools</th>
                <th scope="col" className="num">
                  Capacity
                </th>
                <th scope="col">Agent</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((machine) => (
                <MachineRow
                  key={machine.id}
                  machine={machine}
                  deleting={remove.isPending && remove.variables === machine.id}
                  onDelete={() => remove.mutate(machine.id)}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
