import { BaseSequencer } from 'vitest/node';
export default class LongestFirstSequencer extends BaseSequencer {}
