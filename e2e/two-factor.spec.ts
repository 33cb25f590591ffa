/**
 * Two-factor sign-in, sessions and the audit log in Chromium: enrol with a code computed here
 * (as an authenticator app does), sign out, sign in with a code, a wrong code refused, a
 * recovery code working once, another session signed out from the sessions list, the
 * organization's requirement sending a member to enrol, and the audit log's filters and export.
 * Each screen is checked with axe, by keyboard, and at a phone's 390 px width.
 */
import { expect, expectAccessible, expectFitsPhone, inviteDeveloper, screenshot, SIGNED_OUT, signUpOwner, test } from './fixtures';
import type { Page } from '@playwright/test';
import { base32Decode, totp } from '@/server/capabilities/auth/totp';

// Each test is a new owner of their own: their page starts signed out.
test.use({ storageState: SIGNED_OUT });

const PASSWORD = 'correct horse battery staple';

/** The code the app would show `steps` 30-second steps from now. */
function code(secret: string, steps = 0): string {
  return totp(base32Decode(secret), Date.now() + steps * 30_000);
}

async function openAccount(page: Page, email: string): Promise<void> {
  await page.getByRole('button', { name: `Account: ${email}` }).click();
  await page.getByRole('menuitem', { name: 'Account and password' }).click();
  await expect(page.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
}

/** Set up the authenticator on the account page: returns the key and the recovery codes. */
async function enrol(page: Page, name: string, options: { onAccountPage: boolean } = { onAccountPage: true }): Promise<{ secret: string; recoveryCodes: string[] }> {
  await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
  const secret = (await page.getByTestId('totp-secret').innerText()).replaceAll(' ', '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  // The QR code is an image drawn by the server (data: URL), loaded.
  const qr = page.getByTestId('totp-qr');
  await expect(qr).toHaveAttribute('src', /^data:image\/svg\+xml;base64,/);
  expect(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await expectAccessible(page, `${name}: enrolment`);
  await screenshot(page, `${name}-enrol`);
  await page.getByRole('textbox', { name: 'Code from the app' }).fill(code(secret, 5));
  await page.getByRole('button', { name: 'Turn on' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'not correct' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Code from the app' }).fill(code(secret));
  await page.getByRole('button', { name: 'Turn on' }).click();
  const list = page.getByTestId('recovery-codes');
  await expect(list.getByRole('listitem')).toHaveCount(10);
  const recoveryCodes = (await list.getByRole('listitem').allInnerTexts()).map((c) => c.trim());
  await expectAccessible(page, `${name}: recovery codes`);
  await page.getByRole('button', { name: 'I saved them' }).click();
  if (options.onAccountPage) await expect(page.getByTestId('recovery-codes-left')).toHaveText('10');
  return { secret, recoveryCodes };
}

async function signOut(page: Page, email: string): Promise<void> {
  await page.getByRole('button', { name: `Account: ${email}` }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await page.waitForURL('**/sign-in');
}

/** On the code step: switch to a recovery code and give it. */
async function recoveryCodeStep(page: Page, recoveryCode: string): Promise<void> {
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await page.getByRole('textbox', { name: 'Recovery code' }).fill(recoveryCode);
  await page.getByRole('button', { name: 'Verify' }).click();
}

/** Password first: the console then asks for the second factor. */
async function passwordStep(page: Page, email: string): Promise<void> {
  await page.goto('/sign-in');
  await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL('**/sign-in/two-factor**');
  await expect(page.getByRole('heading', { name: 'Two-factor sign-in', level: 1 })).toBeVisible();
}

test('two-factor sign-in: enrol, sign in with a code, a wrong code refused, a recovery code works once; sessions signed out from the list', async ({ page, browser, demo }) => {
  const email = `totp-${Date.now()}@example.com`;
  await signUpOwner(page, demo, email, PASSWORD, 'Second Factor Studio');
  await openAccount(page, email);
  const { secret, recoveryCodes } = await enrol(page, 'two-factor');
  await signOut(page, email);

  // Password, then a wrong code, then the right one (a step after the one used to enrol).
  await passwordStep(page, email);
  await expectAccessible(page, 'two-factor sign-in step');
  await screenshot(page, 'two-factor-sign-in');
  // Until the code is given the console is closed: a console URL sends back to the code step.
  await page.goto('/');
  await page.waitForURL('**/sign-in/two-factor**');
  const codeBox = page.getByRole('textbox', { name: 'Code', exact: true });
  await codeBox.fill(code(secret, 5));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alert').filter({ hasText: 'not correct' })).toBeVisible();
  await expect(codeBox).toHaveAttribute('aria-invalid', 'true');
  await codeBox.fill(code(secret, 1));
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/o\/org_[^/]+\/test\/overview/);
  await signOut(page, email);

  // A recovery code, typed by keyboard only; it works once.
  await passwordStep(page, email);
  await recoveryCodeStep(page, recoveryCodes[0]!);
  await page.waitForURL(/\/o\/org_[^/]+\/test\/overview/);
  await signOut(page, email);
  await passwordStep(page, email);
  await recoveryCodeStep(page, recoveryCodes[0]!);
  await expect(page.getByRole('alert').filter({ hasText: 'already used' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Recovery code' }).fill(recoveryCodes[1]!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.waitForURL(/\/o\/org_[^/]+\/test\/overview/);

  // A second browser signs in (recovery code); the first signs it out from the sessions list.
  const otherContext = await browser.newContext({ userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0' });
  const other = await otherContext.newPage();
  await passwordStep(other, email);
  await recoveryCodeStep(other, recoveryCodes[2]!);
  await other.waitForURL(/\/o\/org_[^/]+\/test\/overview/);

  await openAccount(page, email);
  const sessions = page.getByRole('table', { name: 'Your sessions' });
  await expect(sessions.getByRole('row')).toHaveCount(3); // header + two sessions
  await expect(sessions).toContainText('This session');
  await expect(sessions).toContainText('Firefox 133 on Linux');
  await expect(page.getByTestId('recovery-codes-left')).toHaveText('7');
  await expectAccessible(page, 'account with sessions');
  await screenshot(page, 'account-security-light');
  const signOutOther = sessions.getByRole('button', { name: /Sign out Firefox 133 on Linux/ });
  await signOutOther.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alertdialog')).toBeVisible();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Sign out' }).click();
  await expect(sessions.getByRole('row')).toHaveCount(2);
  await other.goto(other.url());
  await other.waitForURL('**/sign-in**');
  await otherContext.close();

  // The account page on a phone.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Sessions' })).toBeVisible();
  await expectFitsPhone(page, 'account page');
  await screenshot(page, 'account-security-phone');
});

test('an owner requires two-factor sign-in: a member without it is sent to enrol first; the audit log shows it all, for owners and admins only', async ({ page, browser, demo }) => {
  const email = `owner2fa-${Date.now()}@example.com`;
  const orgName = 'Required Factor Co';
  const orgId = await signUpOwner(page, demo, email, PASSWORD, orgName);
  const invitee = `member2fa-${Date.now()}@example.com`;
  const { dev, close } = await inviteDeveloper(page, browser, demo, invitee, 'Mem Ber', { id: orgId, name: orgName });

  // Owners only, and only with two-factor themselves.
  await page.goto(`/o/${orgId}/test/settings`);
  const requirement = page.getByTestId('require-two-factor');
  await requirement.click();
  await expect(page.getByRole('alert').filter({ hasText: 'Turn on two-factor sign-in for your own account' })).toBeVisible();
  await openAccount(page, email);
  await enrol(page, 'owner');
  await page.goto(`/o/${orgId}/test/settings`);
  await requirement.focus();
  await page.keyboard.press('Space');
  await expect(requirement).toHaveAttribute('data-state', 'checked');

  // The member without it: every screen of that organization asks to enrol first.
  await dev.goto(`/o/${orgId}/test/keys`);
  await expect(dev.getByRole('heading', { name: 'Two-factor sign-in required', level: 1 })).toBeVisible();
  await expectAccessible(dev, 'enrolment required');
  await dev.setViewportSize({ width: 390, height: 844 });
  await expectFitsPhone(dev, 'enrolment required');
  await screenshot(dev, 'two-factor-required-phone');
  await enrol(dev, 'member', { onAccountPage: false });
  await expect(dev.getByRole('heading', { name: 'API keys', level: 1 })).toBeVisible();
  // A developer has no audit log.
  await dev.goto(`/o/${orgId}/test/audit`);
  await expect(dev.getByRole('heading', { name: 'Not available' })).toBeVisible();
  await close();

  // The audit log: filtered by action (in the URL, kept on reload), a row opened by keyboard, exported.
  await page.goto(`/o/${orgId}/test/audit`);
  const table = page.getByRole('table', { name: 'Audit events' });
  await expect(table).toContainText('Organization two-factor requirement changed');
  await expect(table).toContainText('Member invited');
  await expect(table).toContainText('Two-factor enabled');
  await expectAccessible(page, 'audit log');
  await screenshot(page, 'audit-light');
  await page.getByRole('combobox', { name: 'Action' }).click();
  await page.getByRole('option', { name: 'Two-factor enabled' }).click();
  await page.waitForURL(/action=two_factor\.enabled/);
  await page.reload();
  await expect(table.getByRole('row')).toHaveCount(3); // header + the owner's and the member's enrolment
  const firstRow = table.getByRole('row').nth(1);
  await firstRow.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('audit-detail')).toContainText('two_factor.enabled');
  await expectAccessible(page, 'audit event detail');
  await page.keyboard.press('Escape');

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(new RegExp(`^audit-log-${orgId}-.*\\.csv$`));
  const csv = await (await file.createReadStream()).toArray();
  const lines = Buffer.concat(csv).toString('utf8').trimEnd().split('\r\n');
  expect(lines).toHaveLength(3);
  expect(lines.slice(1).every((l) => l.split(',')[2] === 'two_factor.enabled')).toBe(true);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(table).toBeVisible();
  await expectFitsPhone(page, 'audit log');
  await screenshot(page, 'audit-phone');
});
