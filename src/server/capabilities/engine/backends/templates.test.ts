// @node-lines same: our filling of JSON request templates
import { describe, expect, it } from 'vitest';
import { fillTemplate } from './templates';

describe('request templates', () => {
  it('keeps value types, drops absent values, replaces inline placeholders', () => {
    const filled = fillTemplate(
      { image: '{{image}}', mask: '{{mask}}', width: '{{width}}', caption: 'room {{width}}x{{height}}', nodes: { '3': { inputs: { seed: '{{seed}}', list: ['{{mask}}', 'x'] } } }, fixed: 7 },
      { image: 'https://f/1', mask: null, width: 2048, height: 1536, seed: 42 },
    );
    expect(filled).toEqual({ image: 'https://f/1', width: 2048, caption: 'room 2048x1536', nodes: { '3': { inputs: { seed: 42, list: ['x'] } } }, fixed: 7 });
  });

  it('an unknown placeholder is an error, not a silent empty value', () => {
    expect(() => fillTemplate({ a: '{{nope}}' }, {})).toThrow('{{nope}}');
  });
});
