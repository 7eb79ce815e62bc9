// The local payment provider's checkout page (served by the product when no Stripe key is set) in
// the browser: the person reads the order and clicks Pay, as they would on Stripe's page.
import type { Page } from 'playwright-core';
import { screenshot } from './product.js';

export interface Order {
  /** The line as the page names it, e.g. 'Main pack' or 'Studio (monthly)'. */
  item: string;
  /** The total as the page shows it, e.g. '$24' or '$40 / month'. */
  total: string;
  /** The artifact's name under reports/web-e2e. */
  screenshot: string;
}

/**
 * Waits for the checkout page, checks the order, keeps a screenshot, clicks Pay and answers the
 * address the browser was sent back to (as it arrived: the app may then tidy its query away).
 */
export async function payOnLocalCheckout(page: Page, order: Order): Promise<URL> {
  await page.waitForURL((u) => u.pathname.startsWith('/checkout/local/'));
  await page.getByRole('heading', { name: 'Your order' }).waitFor();
  await page.getByText(order.item, { exact: true }).waitFor();
  await page.getByText(order.total, { exact: true }).waitFor();
  await screenshot(page, order.screenshot);
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  let back: URL | undefined;
  await page.waitForURL(
    (u) => {
      if (u.pathname.startsWith('/checkout/local/')) return false;
      back = u;
      return true;
    },
    { waitUntil: 'commit' },
  );
  return back!;
}
