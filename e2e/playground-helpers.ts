/** Shared steps of the playground e2e files: a room photo, the kind, the file, a run to its end. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { Page } from '@playwright/test';
import { expect } from './fixtures';

export const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'roomtone-playground-'));
export const ROOM = path.join(workDir, 'room.jpg');

/** A room: beige wall above, brown floor below, a dark "armchair" on the floor. */
export async function roomPhoto(): Promise<void> {
  if (fs.existsSync(ROOM)) return;
  const width = 960;
  const height = 640;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="${width}" height="420" fill="#d8cbb0"/>
    <rect y="420" width="${width}" height="220" fill="#7a5532"/>
    <rect x="560" y="330" width="240" height="200" fill="#2b2b33"/>
  </svg>`;
  await sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toFile(ROOM);
}

export async function openPlayground(page: Page, organizationId: string, query = '', mode: 'test' | 'live' = 'test'): Promise<void> {
  await page.goto(`/o/${organizationId}/${mode}/playground${query}`);
  await expect(page.getByRole('heading', { name: 'Playground', level: 1 })).toBeVisible();
}

export async function chooseKind(page: Page, kind: 'Render' | 'Edit' | 'Decoration' | 'Upscale'): Promise<void> {
  // The screen is in the server-rendered HTML: a click that lands before React hydrates it is
  // lost, so click until the choice holds.
  const radio = page.getByRole('radiogroup', { name: 'Kind of creation' }).getByRole('radio', { name: kind, exact: true });
  await expect(async () => {
    await radio.click();
    await expect(radio).toBeChecked({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
}

export async function chooseFile(page: Page): Promise<void> {
  await roomPhoto();
  await page.getByLabel('Image file').setInputFiles(ROOM);
  await expect(page.getByTestId('image-source')).toContainText('room.jpg (960×640)');
}

export async function pickOption(page: Page, trigger: string, option: string): Promise<void> {
  await page.getByRole('combobox', { name: trigger }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

export interface ShownGeneration {
  id: string;
  type: string;
  status: string;
  input: Record<string, unknown>;
  metadata: Record<string, string>;
  cost: { amount: number };
  output: { url: string }[];
}

/** Run, watch the status change without reload, and read the generation JSON shown. */
export async function runToSuccess(page: Page): Promise<ShownGeneration> {
  const previous = (await page.getByTestId('request-id').count()) > 0 ? await page.getByTestId('request-id').textContent() : null;
  await page.getByTestId('run').click();
  const status = page.getByTestId('generation-status');
  await expect(status).toBeVisible();
  // A new request (a previous result stays on screen until the new one is accepted).
  if (previous) await expect(page.getByTestId('request-id')).not.toHaveText(previous, { timeout: 60_000 });
  await expect(status).toHaveText('Succeeded', { timeout: 180_000 });
  await expect(page.getByTestId('result-image')).toBeVisible();
  const json = await page.getByTestId('generation-json').textContent();
  return JSON.parse(json ?? '{}') as ShownGeneration;
}

export async function paint(page: Page, from: [number, number], to: [number, number]): Promise<void> {
  // page.mouse does not scroll: on a phone the canvas can sit below the fold, where a stroke
  // at its coordinates reaches nothing.
  const canvas = page.getByTestId('mask-canvas');
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  if (!box) throw new Error('no mask canvas');
  await page.mouse.move(box.x + box.width * from[0], box.y + box.height * from[1]);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * to[0], box.y + box.height * to[1], { steps: 12 });
  await page.mouse.up();
}
