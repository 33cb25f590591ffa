import fs from 'node:fs';
import path from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import type { E2EState } from './global-setup';

export { expect };

export function state(): E2EState {
  const file = process.env.E2E_STATE;
  if (!file) throw new Error('E2E_STATE is not set: run through playwright (e2e/global-setup.ts)');
  return JSON.parse(fs.readFileSync(file, 'utf8')) as E2EState;
}

export const test = base.extend<{ demo: E2EState }>({
  demo: async ({}, provide) => provide(state()),
});

export async function signInWithPassword(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/sign-in');
  await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(/\/o\/org_[^/]+\/test\/overview/);
}

/** A /v1 call from the test, as a customer's code would make it. */
export async function v1(baseUrl: string, key: string, pathname: string, init: RequestInit = {}): Promise<{ status: number; requestId: string; body: Record<string, unknown> }> {
  const res = await fetch(`${baseUrl}${pathname}`, { ...init, headers: { authorization: `Bearer ${key}`, ...init.headers } });
  const text = await res.text();
  return { status: res.status, requestId: res.headers.get('request-id') ?? '', body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** No serious or critical accessibility violation on the page as it is now. */
export async function expectAccessible(page: Page, context: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const summary = bad.map((v) => `${v.impact} ${v.id}: ${v.help}\n  ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join('\n  ')}`).join('\n');
  expect(bad, `${context}:\n${summary}`).toEqual([]);
}

export const SCREENSHOT_DIR = path.resolve(import.meta.dirname, 'screenshots');

export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}
