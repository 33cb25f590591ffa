/**
 * A new account (open sign-up) in Chromium: the address is confirmed with the link the operator's
 * `roomtone mail list` shows (no SMTP here, the zero-setup case) and the account's password, then
 * the password is changed in the console; a wrong current password and a short new one are shown
 * next to their fields; after signing out, the old password is refused and the new one signs in.
 */
import { expect, expectAccessible, screenshot, signInWithPassword, SIGNED_OUT, test } from './fixtures';
import { linkIn, roomtoneMailList } from './mailbox';

// A new account of its own: it signs out at the end, which the demo owner's shared session must not.
test.use({ storageState: SIGNED_OUT });

test('sign up, confirm the address, change the password, then sign in with the new one (and not the old)', async ({ page, demo }) => {
  const email = `pw-${Date.now()}@example.com`;
  const oldPassword = 'first password 123';
  const newPassword = 'second password 456';
  await page.goto('/sign-up');
  // It promises what it does (no test-mode keys are made at sign-up).
  await expect(page.getByText('You become the owner of a new organization, once you confirm your e-mail address.')).toBeVisible();
  await page.getByLabel('Your name').fill('Pat Password');
  await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(oldPassword);
  await page.getByLabel('Organization name').fill('Password Org');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('status')).toContainText('Check your e-mail');
  await expect(page.getByRole('status')).toContainText('roomtone mail list');

  // The password does not sign in before the address is confirmed.
  await page.goto('/sign-in');
  await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(oldPassword);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Confirm your e-mail address first' })).toBeVisible();

  // What a local user does without SMTP: the operator's CLI lists the confirmation mail.
  const mail = (await roomtoneMailList(demo, email)).find((m) => m.subject.includes('Confirm your e-mail address'));
  expect(mail?.kind).toBe('access');
  await page.goto(linkIn(mail!.text, '/verify-email?'));
  await expect(page.getByRole('heading', { name: 'Confirm your e-mail address' })).toBeVisible();
  await expectAccessible(page, 'verify-email');
  await screenshot(page, 'verify-email-light');
  const password = page.getByRole('textbox', { name: 'Password', exact: true });
  await password.fill('not my password');
  await page.getByRole('button', { name: 'Confirm and sign in' }).click();
  await expect(password).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('alert').filter({ hasText: 'The password is not correct.' })).toBeVisible();
  await password.fill(oldPassword);
  await page.getByRole('button', { name: 'Confirm and sign in' }).click();
  await page.waitForURL(/\/o\/org_[^/]+\/test\/overview/);

  await page.getByRole('button', { name: `Account: ${email}` }).click();
  await page.getByRole('menuitem', { name: 'Account and password' }).click();
  await expect(page.getByRole('heading', { name: 'Your account', level: 1 })).toBeVisible();
  await expectAccessible(page, 'account');
  await screenshot(page, 'account-light');

  const current = page.getByRole('textbox', { name: 'Current password', exact: true });
  const next = page.getByRole('textbox', { name: 'New password', exact: true });
  const repeat = page.getByRole('textbox', { name: 'Repeat the new password', exact: true });
  // Too short: refused in the browser with the server's own rule, next to the field.
  await current.fill(oldPassword);
  await next.fill('short');
  await repeat.fill('short');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(next).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('alert').filter({ hasText: 'at least 10 characters' })).toBeVisible();
  // Wrong current password: the server's refusal (param currentPassword), next to that field.
  await current.fill('not my password');
  await next.fill(newPassword);
  await repeat.fill(newPassword);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(current).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('alert').filter({ hasText: 'The current password is not correct.' })).toBeVisible();
  await expectAccessible(page, 'account with errors');

  await current.fill(oldPassword);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Password changed.')).toBeVisible();

  await page.getByRole('button', { name: `Account: ${email}` }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await page.waitForURL('**/sign-in');
  await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(oldPassword);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Wrong e-mail or password.' })).toBeVisible();
  await signInWithPassword(page, email, newPassword);
  await expect(page.getByRole('button', { name: `Account: ${email}` })).toBeVisible();
});
