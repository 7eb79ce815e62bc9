// The local payment provider's pages: plain HTML the product serves in place of Stripe's.
import { escapeHtml } from '@flatlay/platform';
import { displayPrice } from '../domain/money.js';

const page = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#222}
.card{border:1px solid #ddd;border-radius:12px;padding:1.5rem}.total{font-size:1.5rem;font-weight:600}
button{font-size:1rem;padding:.6rem 1.2rem;border-radius:8px;border:1px solid #222;cursor:pointer;margin-right:.5rem}
.pay{background:#222;color:#fff}.note{color:#666;font-size:.85rem}</style></head>
<body><div class="card">${body}</div>
<p class="note">Local payment provider: no card is charged. Set STRIPE_SECRET_KEY to take real payments.</p></body></html>`;

export interface CheckoutView {
  action: string;
  csrfToken: string;
  productName: string;
  amountCents: number;
  discountCents: number;
  mode: 'payment' | 'subscription';
  interval: string;
  status: string;
}

export function checkoutPage(v: CheckoutView): string {
  const total = Math.max(0, v.amountCents - v.discountCents);
  const per = v.mode === 'subscription' ? ` / ${v.interval === 'yearly' ? 'year' : 'month'}` : '';
  if (v.status !== 'open')
    return page(
      'Checkout',
      `<h1>Checkout</h1><p>This checkout is ${escapeHtml(v.status === 'complete' ? 'already paid' : 'no longer open')}.</p>`,
    );
  const discount = v.discountCents > 0 ? `<p>Discount: −${escapeHtml(displayPrice(v.discountCents))}</p>` : '';
  return page(
    'Checkout',
    `<h1>Your order</h1><p>${escapeHtml(v.productName)}</p>${discount}
<p class="total">${escapeHtml(displayPrice(total))}${escapeHtml(per)}</p>
<form method="post" action="${escapeHtml(v.action)}">
<input type="hidden" name="csrf_token" value="${escapeHtml(v.csrfToken)}">
<button class="pay" name="action" value="pay" type="submit">Pay</button>
<button name="action" value="cancel" type="submit">Cancel</button>
</form>`,
  );
}

export interface PortalView {
  action: string;
  csrfToken: string;
  returnUrl: string;
  subscriptions: Array<{ id: string; name: string; status: string; cancelAtPeriodEnd: boolean; periodEnd: Date }>;
}

export function portalPage(v: PortalView): string {
  const rows = v.subscriptions
    .map((s) => {
      const state = s.status !== 'active' ? s.status : s.cancelAtPeriodEnd ? 'Cancelling' : 'Active';
      const when = `${s.cancelAtPeriodEnd ? 'Ends on' : 'Renews on'} ${s.periodEnd.toISOString().slice(0, 10)}`;
      const button =
        s.status === 'active'
          ? `<button name="action" value="${s.cancelAtPeriodEnd ? 'resume' : 'cancel'}" type="submit">${s.cancelAtPeriodEnd ? 'Resume subscription' : 'Cancel subscription'}</button>`
          : '';
      return `<p><strong>${escapeHtml(s.name)}</strong> · ${escapeHtml(state)} · ${escapeHtml(when)}</p>${button}`;
    })
    .join('');
  return page(
    'Billing',
    `<h1>Billing</h1>
<form method="post" action="${escapeHtml(v.action)}">
<input type="hidden" name="csrf_token" value="${escapeHtml(v.csrfToken)}">
${rows || '<p>No subscriptions.</p>'}
</form><p><a href="${escapeHtml(v.returnUrl)}">Back to your account</a></p>`,
  );
}

export const notFoundPage = () =>
  page('Not found', '<h1>Not found</h1><p>This page does not exist or has expired.</p>');
