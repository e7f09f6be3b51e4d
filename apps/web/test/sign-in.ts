import type { Page } from 'playwright-core';

/**
 * Signs in as a visitor without a session does: opens the app (the `next` of `loginUrl`), is sent to `loginUrl` (the
 * auth app's login page), fills in the form and is sent back to the app.
 */
export async function signIn(page: Page, loginUrl: string, email: string, password: string): Promise<void> {
  const app = new URL(loginUrl).searchParams.get('next');
  if (!app) throw new Error(`${loginUrl} gives no next page`);
  await page.goto(app);
  await page.waitForURL(loginUrl);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(app);
}
