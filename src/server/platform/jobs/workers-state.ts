/** Whether this process's job workers are running (readiness); set by startWorkers. */
let running = false;

export function setWorkersRunning(value: boolean): void {
  running = value;
}

export function workersRunning(): boolean {
  return running;
}
