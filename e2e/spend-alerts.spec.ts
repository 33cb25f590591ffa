/**
 * The usage screen's month: live spend to date against the limit, the projection
 * with how it is made, and the spend alert settings an owner edits (a developer only reads them:
 * test/spend-alerts.test.ts covers the refusal and the alerts themselves).
 */
import { expect, expectAccessible, test } from './fixtures';

const cents = (text: string) => Math.round(Number(text.replace(/[^0-9.]/g, '')) * 100);
const euros = (value: number) => `€${(value / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

test('the usage screen projects the month and saves the owner’s alert thresholds', async ({ page, demo }) => {
  await page.goto(`/o/${demo.organizationId}/live/usage`);
  const spend = page.getByTestId('month-spend');
  await expect(spend).toHaveText(/^€[\d,]+\.\d\d of €5,000\.00$/); // tier 2 (e2e/global-setup.ts)
  const spent = cents((await spend.textContent())!.split(' of ')[0]!);
  const now = new Date();
  const daysInMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0)).getUTCDate();
  // The rule the card states: spend so far / days elapsed (today whole) × days in the month.
  await expect(page.getByTestId('month-projection')).toHaveText(new RegExp(`^Projected for the month: ${euros(Math.round((spent / now.getUTCDate()) * daysInMonth)).replace(/[.$]/g, '\\$&')}`));
  await expect(page.getByText(`divided by the ${now.getUTCDate()} day`)).toBeVisible();

  const form = page.getByRole('form', { name: 'Spend alert settings' });
  const percents = form.getByRole('textbox', { name: 'Percents of the monthly limit' });
  const floor = form.getByRole('textbox', { name: 'Balance floor (EUR)' });
  await expect(percents).toHaveValue('80, 100'); // the defaults
  await expect(floor).toHaveValue('');
  await percents.fill('50, 0');
  await form.getByRole('button', { name: 'Save spend alerts' }).click();
  await expect(form.getByText('A threshold is at least 1 %.')).toBeVisible();
  await percents.fill('90 50');
  await floor.fill('20');
  await form.getByRole('button', { name: 'Save spend alerts' }).click();
  await expect(page.getByText('Spend alerts saved.')).toBeVisible();
  await expectAccessible(page, 'usage with spend alerts');
  await page.reload();
  await expect(percents).toHaveValue('50, 90');
  await expect(floor).toHaveValue('20.00');
  // Back to the defaults for the other specs' demo organization.
  await percents.fill('80, 100');
  await floor.fill('');
  await form.getByRole('button', { name: 'Save spend alerts' }).click();
  await expect(page.getByText('Spend alerts saved.')).toBeVisible();
});
