/** The settings the run machinery reads; each module takes the few it uses (`Pick<RunSettings, ...>`). */
export interface RunSettings {
  publicUrl: string;
  /** How long an assignment waits for its lost agent to come back before it fails. */
  agentGraceMillis: number;
  heartbeatSeconds: number;
  /** How long a presence holds without renewal (a replica that died stops renewing). */
  leaseSeconds: number;
  /** How often the sweep (lost agents, stuck tasks, resends, stream checks, dispatch) runs. */
  sweepMillis: number;
  /** Default wait of a pending task before it fails; null: no deadline. */
  pendingTimeoutSeconds: number | null;
}
