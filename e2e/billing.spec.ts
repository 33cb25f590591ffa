/**
 * Billing as an owner uses it: add credit through Stripe Checkout (the local stand-in's hosted
 * page, e2e/global-setup.ts), come back credited, see the receipt, set up auto-recharge with the
 * saved card and change that card on Stripe's card page; on a 390 px phone and a desktop, in both themes, by keyboard, with axe.
 */
import type { Page } from '@playwright/test';
import { expect, expectAccessible, expectInsideWindow, test } from './fixtures';

function euros(text: string | null): number {
  return Number((text ?? '').replace(/[^0-9.,-]/g, '').replace(/,/g, ''));
}

async function balance(page: Page): Promise<number> {
  const shown = page.getByTestId('balance');
  await expect(shown).toBeVisible();
  return euros(await shown.textContent());
}

test('an owner adds credit through Stripe Checkout, sees the receipt and sets up auto-recharge', async ({ page, demo }) => {
  const billing = `/o/${demo.organizationId}/live/billing`;
  await page.goto(billing);
  const before = await balance(page);
  // An amount per attempt: a retry of this test must find its own purchase, not the failed attempt's.
  const bought = 25.5 + test.info().retry;
  const boughtText = `€${bought.toFixed(2)}`;

  // By keyboard: the dialog opens, the amount is typed, Enter submits.
  await page.getByRole('button', { name: 'Add credit' }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Add credit' });
  await expect(dialog).toContainText('Stripe');
  await expectAccessible(page, 'add credit dialog');
  const amount = dialog.getByRole('textbox', { name: 'Amount (EUR)' });
  await amount.fill('2');
  await amount.press('Enter');
  await expect(dialog.getByRole('alert')).toContainText('€5.00');
  await amount.fill(bought.toFixed(2));
  await amount.press('Enter');

  // Stripe's hosted page (the stand-in), then back to Billing.
  await page.waitForURL(/\/c\/pay\/cs_test_/);
  await expect(page.getByText(`Roomtone credit ${boughtText}`)).toBeVisible();
  await page.getByRole('button', { name: `Pay ${boughtText}` }).click();
  await page.waitForURL((url) => url.pathname === billing);
  await expect(page.getByText(`${boughtText} added to your balance.`)).toBeVisible();
  await expect.poll(() => balance(page)).toBeCloseTo(before + bought, 2);
  await expect(page).toHaveURL((url) => !url.search.includes('purchase='));

  const receipts = page.getByRole('table', { name: 'Purchases and receipts' });
  const row = receipts.getByRole('row').filter({ hasText: boughtText });
  await expect(row).toContainText('paid');
  await expect(row.getByRole('link', { name: /Receipt/ })).toHaveAttribute('href', /\/receipts\/ch_/);
  await expect(page.getByRole('table', { name: 'Transactions' }).getByRole('row').filter({ hasText: 'Credit purchase' }).first()).toContainText(boughtText);

  // Auto-recharge with the card the purchase saved.
  await expect(page.getByTestId('recharge-card')).toContainText('pm_card_visa');
  const settings = page.getByRole('form', { name: 'Auto-recharge settings' });
  // check(), not click(): a retry finds the switch as the failed attempt left it.
  await settings.getByRole('switch', { name: 'Recharge automatically' }).check();
  await settings.getByRole('textbox', { name: 'When the balance falls below (EUR)' }).fill('10');
  await settings.getByRole('textbox', { name: 'Add (EUR)' }).fill('40');
  await settings.getByRole('button', { name: 'Save auto-recharge' }).click();
  await expect(page.getByText('Auto-recharge on: €40.00 when the balance falls below €10.00.')).toBeVisible();
  await page.reload();
  await expect(settings.getByRole('switch', { name: 'Recharge automatically' })).toBeChecked();
  await expect(settings.getByRole('textbox', { name: 'Add (EUR)' })).toHaveValue('40.00');
  // Changed again, then off. The switch is flipped while the save's refetch of the settings is
  // held on its way: when it lands, the form keeps what the user changed since.
  let releaseRefetch!: () => void;
  const refetchHeld = new Promise<void>((resolve) => (releaseRefetch = resolve));
  await page.route(/\/api\/trpc\/[^?]*billing\.get/, async (route) => {
    await refetchHeld;
    await route.continue();
  });
  await settings.getByRole('textbox', { name: 'Add (EUR)' }).fill('60');
  await settings.getByRole('button', { name: 'Save auto-recharge' }).click();
  await expect(page.getByText('Auto-recharge on: €60.00 when the balance falls below €10.00.')).toBeVisible();
  await settings.getByRole('switch', { name: 'Recharge automatically' }).uncheck();
  const refetched = page.waitForResponse(/\/api\/trpc\/[^?]*billing\.get/);
  releaseRefetch();
  await refetched;
  await page.unroute(/\/api\/trpc\/[^?]*billing\.get/);
  await expect(settings.getByRole('switch', { name: 'Recharge automatically' })).not.toBeChecked();
  await expect(settings.getByRole('textbox', { name: 'Add (EUR)' })).toHaveValue('60.00');
  await settings.getByRole('button', { name: 'Save auto-recharge' }).click();
  await expect(page.getByText('Auto-recharge off.')).toBeVisible();

  // Another card, without buying: Stripe's page that saves a card (Checkout in setup mode), then back.
  await settings.getByRole('button', { name: 'Change card' }).click();
  await page.waitForURL(/\/c\/pay\/cs_test_/);
  await expect(page.getByRole('heading', { name: 'Save a card for Roomtone' })).toBeVisible();
  await page.getByLabel('Card number').fill('5555 5555 5555 4444');
  await page.getByRole('button', { name: 'Save card' }).click();
  await page.waitForURL((url) => url.pathname === billing);
  await expect(page.getByText('Card pm_card_mastercard saved: it pays the next auto-recharges.')).toBeVisible();
  await expect(page.getByTestId('recharge-card')).toContainText('pm_card_mastercard');
  await expect(page).toHaveURL((url) => !url.search.includes('card_setup='));
  // Going back from the card page changes nothing.
  await settings.getByRole('button', { name: 'Change card' }).click();
  await page.waitForURL(/\/c\/pay\/cs_test_/);
  await page.getByRole('link', { name: 'Back to Roomtone' }).click();
  await page.waitForURL((url) => url.pathname === billing);
  await expect(page.getByTestId('recharge-card')).toContainText('pm_card_mastercard');
  await expect(balance(page)).resolves.toBeCloseTo(before + bought, 2);
});

test('giving up on the payment page credits nothing and says so', async ({ page, demo }) => {
  const billing = `/o/${demo.organizationId}/test/billing`;
  await page.goto(billing);
  const before = await balance(page);
  await page.getByRole('button', { name: 'Add credit' }).click();
  await page.getByRole('dialog').getByRole('textbox', { name: 'Amount (EUR)' }).fill('30');
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await page.waitForURL(/\/c\/pay\/cs_test_/);
  await page.getByRole('link', { name: 'Back to Roomtone' }).click();
  await expect(page.getByText('Payment canceled: nothing was charged.')).toBeVisible();
  expect(await balance(page)).toBe(before);
  await expect(page.getByRole('table', { name: 'Purchases and receipts' }).getByRole('row').filter({ hasText: '€30.00' }).first()).toContainText('awaiting payment');
});

for (const theme of ['light', 'dark'] as const) {
  test(`billing fits a 390 px phone and passes axe (${theme}: ${theme === 'light' ? 'every rule' : 'the colour rules'})`, async ({ page, demo }) => {
    await page.emulateMedia({ colorScheme: theme });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/o/${demo.organizationId}/test/billing`);
    await expect(page.getByRole('button', { name: 'Add credit' })).toBeVisible();
    await expect(page.locator('[role="status"][aria-label^="Loading"]')).toHaveCount(0);
    await expectAccessible(page, `billing (${theme}, 390 px)`, theme === 'light' ? 'all' : 'colours');
    for (const part of ['Auto-recharge settings', 'Purchases and receipts'] as const) {
      const region = part === 'Auto-recharge settings' ? page.getByRole('form', { name: part }) : page.locator('section', { has: page.getByRole('heading', { name: part }) });
      await expectInsideWindow(page, region, `${part} at 390 px`);
    }
    await page.getByRole('button', { name: 'Add credit' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectInsideWindow(page, page.getByRole('dialog'), 'add credit dialog at 390 px');
    await expectAccessible(page, `add credit dialog (${theme}, 390 px)`, theme === 'light' ? 'all' : 'colours');
    await page.keyboard.press('Escape');
  });
}
