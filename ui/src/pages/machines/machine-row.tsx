/** MachineRow: one machine: name and hostname, status, region, hardware, tools with versions, capacity, agent, delete. */
import type { Machine } from '../../api/types';
import { ConfirmButton } from '../../components/common/confirm-button';
import { StatusBadge } from '../../components/common/status-badge';
import { formatRate } from '../../components/common/formatters';

function hardware(machine: Machine): string {
  const parts = [`${machine.os}/${machine.arch}`];
  if (machine.cpu_cores > 0) parts.push(`${machine.cpu_cores} ${machine.cpu_cores === 1 ? 'core' : 'cores'}`);
  if (machine.memory_gb > 0) parts.push(`${machine.memory_gb} GB`);
  return parts.join(', ');
}

export function MachineRow({ machine, onDelete, deleting }: { machine: Machine; onDelete(): void; deleting: boolean }) {
  return (
    <tr>
      <th scope="row">
        {machine.name}
        {machine.hostname !== machine.name ? <div className="muted">{machine.hostname}</div> : null}
      </th>
      <td>
        <StatusBadge status={machine.status} />
      </td>
      <td>{machine.region ?? <span className="muted">unknown</span>}</td>
      <td>
        {hardware(machine)}
        <div className="muted">{machine.ip_address}</div>
      </td>
      <td>
        {machine.tools.length === 0 ? (
          <span className="muted">none reported</span>
        ) : (
          <ul className="tool-list" aria-label={`Tools on ${machine.name}`}>
            {machine.tools.map((tool) => (
              <li key={tool.tool}>
                {tool.tool}
                {tool.version ? ` ${tool.version}` : ''}
              </li>
            ))}
          </ul>
        )}
      </td>
      <td className="num">{machine.benchmark_capacity === null ? <span className="muted">not measured</span> : formatRate(machine.benchmark_capacity)}</td>
      <td>{machine.agent_version ?? <span className="muted">never connected</span>}</td>
      <td>
        <ConfirmButton
          label="Delete"
          confirmLabel={`Delete ${machine.name}`}
          keepLabel="Keep"
          question={`Delete machine ${machine.name}? Its agent stops.`}
          busy={deleting}
          onConfirm={onDelete}
        />
      </td>
    </tr>
  );
}
