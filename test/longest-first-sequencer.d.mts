import { BaseSequencer } from 'vitest/node';
export default class LongestFirstSequencer extends BaseSequencer {}
export function gatherSharedProcesses<T extends { project: { name: string; config: { isolate?: boolean } } }>(sorted: T[]): T[];
