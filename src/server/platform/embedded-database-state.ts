/**
 * What the supervisor of the embedded PostgreSQL reports (/readyz, /metrics), in the process
 * that started the cluster.
 */
export interface EmbeddedDatabaseState {
  /** `external`: it exited and another process started it again; watched, not ours to stop. */
  state: 'running' | 'restarting' | 'external' | 'stopped';
  /** Restarts by the supervisor since this process started the cluster. */
  restarts: number;
  /** How the last exit went, e.g. "signal SIGKILL". */
  lastExit: string | null;
}

let supervised: EmbeddedDatabaseState | null = null;

/** The supervisor's live record (it updates the object it is handed back). */
export function superviseState(): EmbeddedDatabaseState {
  const state: EmbeddedDatabaseState = { state: 'running', restarts: 0, lastExit: null };
  supervised = state;
  return state;
}

/** The state of the embedded PostgreSQL this process supervises; null when it supervises none. */
export function embeddedDatabaseState(): EmbeddedDatabaseState | null {
  return supervised ? { ...supervised } : null;
}
