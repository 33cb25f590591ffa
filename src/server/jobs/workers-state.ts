/** Whether this process's job workers are running (readiness); set by startWorkers. */
const state = globalThis as unknown as { roomtoneWorkersRunning?: boolean };

export function setWorkersRunning(running: boolean): void {
  state.roomtoneWorkersRunning = running;
}

export function workersRunning(): boolean {
  return state.roomtoneWorkersRunning === true;
}
