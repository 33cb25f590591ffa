// @node-lines same: our letterbox and answer-format arithmetic
import { describe, expect, it } from 'vitest';
import { answerFormat, letterboxFor } from './openai-adapter';

describe('OpenAI letterbox', () => {
  it('puts the input in the closest of the three sizes, whole and centred, aspect kept', () => {
    expect(letterboxFor({ width: 2048, height: 1536 })).toEqual({ canvas: expect.objectContaining({ name: '1536x1024' }), left: 85, top: 0, width: 1365, height: 1024 });
    expect(letterboxFor({ width: 768, height: 1024 })).toEqual({ canvas: expect.objectContaining({ name: '1024x1536' }), left: 0, top: 85, width: 1024, height: 1365 });
    expect(letterboxFor({ width: 1000, height: 1040 })).toEqual({ canvas: expect.objectContaining({ name: '1024x1024' }), left: 19, top: 0, width: 985, height: 1024 });
  });

  it('puts DALL·E 2 inputs in the smallest allowed square that holds the long side (1024 at most)', () => {
    expect(letterboxFor({ width: 1024, height: 768 }, 'dall-e-2')).toEqual({ canvas: expect.objectContaining({ name: '1024x1024' }), left: 0, top: 128, width: 1024, height: 768 });
    expect(letterboxFor({ width: 2048, height: 1536 }, 'dall-e-2')).toEqual({ canvas: expect.objectContaining({ name: '1024x1024' }), left: 0, top: 128, width: 1024, height: 768 });
    expect(letterboxFor({ width: 400, height: 300 }, 'dall-e-2')).toEqual({ canvas: expect.objectContaining({ name: '512x512' }), left: 0, top: 64, width: 512, height: 384 });
    expect(letterboxFor({ width: 180, height: 240 }, 'dall-e-2')).toEqual({ canvas: expect.objectContaining({ name: '256x256' }), left: 32, top: 0, width: 192, height: 256 });
  });
});

describe('OpenAI answer format', () => {
  it('asks GPT image models for JPEG q95, and DALL·E models (which refuse the parameter) for nothing', () => {
    expect(answerFormat('gpt-image-1')).toEqual({ output_format: 'jpeg', output_compression: 95 });
    expect(answerFormat('gpt-image-1-mini')).toEqual({ output_format: 'jpeg', output_compression: 95 });
    expect(answerFormat('dall-e-2')).toEqual({});
  });
});
