/**
 * A new account (open sign-up) in Chromium: the address is confirmed with the link the operator's
 * `roomtone mail list` shows (no SMTP here, the zero-setup case) and the account's password, then
 * the password is changed in the console; a wrong current password and a short new one are shown
 * next to their fields; after signing out, the old password is refused and the new one signs in.
 * The account page's sections are cards alike, and the recovery codes sit together with their
 * actions, at a laptop's and a phone's width, in both themes.
 */
import type { Locator } from '@playwright/test';
import { base32Decode, totp } from '@/server/capabilities/auth/totp';
import { expect, expectAccessible, screenshot, signInWithPassword, SIGNED_OUT, signUpOwner, test } from './fixtures';
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
  // The card's title says what comes next, not the step just done.
  await expect(page.getByRole('heading', { name: 'Check your e-mail', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Create your account' })).toHaveCount(0);
  await expect(page.getByRole('status')).toContainText(`We sent a message to ${email}`);
  await expect(page.getByRole('status')).toContainText('roomtone mail list');
  await expectAccessible(page, 'sign-up, check your e-mail');

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

/** The card look: what a section's frame computes to. */
async function cardLook(section: Locator): Promise<string> {
  return section.evaluate((el) => {
    const style = getComputedStyle(el);
    return [style.borderTopWidth, style.borderTopStyle, style.borderRadius, style.backgroundColor, style.boxShadow].join(' | ');
  });
}

test('the account page: password, two-factor and sessions are cards alike; the recovery codes sit together with their actions', async ({ page, demo }) => {
  const email = `cards-${Date.now()}@example.com`;
  await signUpOwner(page, demo, email, 'cards password 123', 'Cards Org');
  await page.goto(page.url().replace(/\/overview$/, '/account'));
  const password = page.getByRole('region', { name: 'Change password' });
  const twoFactor = page.getByRole('region', { name: /Two-factor sign-in/ });
  const sessions = page.getByRole('region', { name: /Sessions/ });
  await expect(password).toBeVisible();
  await expect(password.getByRole('button', { name: 'Change password' })).toBeVisible();
  const look = await cardLook(twoFactor);
  expect(look).toContain('solid');
  expect(await cardLook(password)).toBe(look);
  expect(await cardLook(sessions)).toBe(look);

  // Two-factor on: the recovery codes, in a block the width of the codes, actions right under them.
  await twoFactor.getByRole('button', { name: 'Set up an authenticator app' }).click();
  const secret = (await page.getByTestId('totp-secret').innerText()).replaceAll(' ', '');
  await page.getByRole('textbox', { name: 'Code from the app' }).fill(totp(base32Decode(secret), Date.now()));
  await page.getByRole('button', { name: 'Turn on' }).click();
  const codes = page.getByTestId('recovery-codes');
  await expect(codes.getByRole('listitem')).toHaveCount(10);
  for (const size of [
    { width: 1360, height: 850 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(size);
    // All four boxes read in one layout (separate reads can straddle a scroll or a reflow after
    // the resize), again until the page has settled.
    await expect(async () => {
      const { list, first, second, saved } = await codes.evaluate((el) => {
        const box = (node: Element | null | undefined) => {
          const r = node!.getBoundingClientRect();
          return { x: r.x, y: r.y, width: r.width, height: r.height };
        };
        const button = [...document.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'I saved them');
        return { list: box(el), first: box(el.children[0]), second: box(el.children[1]), saved: box(button) };
      });
      expect(list.width, `the codes' width at ${size.width}`).toBeLessThan(360);
      expect(second.x - (first.x + first.width), `the gap between two codes at ${size.width}`).toBeLessThan(48);
      expect(saved.y - (list.y + list.height), `codes to their actions at ${size.width}`).toBeLessThan(40);
      expect(saved.y - (list.y + list.height), `codes above their actions at ${size.width}`).toBeGreaterThanOrEqual(0);
    }).toPass({ timeout: 10_000 });
    for (const theme of ['dark', 'light'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await expect(page.locator('html')).toHaveClass(new RegExp(theme));
      await expectAccessible(page, `account, recovery codes at ${size.width} (${theme})`, theme === 'dark' ? 'colours' : 'all');
    }
  }
  await page.getByRole('button', { name: 'I saved them' }).click();
  await expect(page.getByTestId('recovery-codes-left')).toHaveText('10');
});
