// A browser on the local payment provider's pages, over HTTP: it opens the page a checkout or
// portal URL names, reads the form (its action and CSRF token) and submits a button, as a person
// clicking Pay, Cancel, or Cancel/Resume subscription would.
import assert from 'node:assert/strict';

export interface PageForm {
  /** The form's action, as an absolute URL on `base`. */
  action: string;
  csrfToken: string;
  /** The values of the form's submit buttons (pay/cancel, or cancel/resume). */
  buttons: string[];
  html: string;
}

/** The page at `url`, fetched from `base` (the product's address; the URL's own origin is ignored). */
export async function openForm(base: string, url: string): Promise<PageForm> {
  const { pathname, search } = new URL(url, base);
  const res = await fetch(`${base}${pathname}${search}`);
  const html = await res.text();
  assert.equal(res.status, 200, html);
  assert.match(res.headers.get('content-type') ?? '', /text\/html/);
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  const csrfToken = /name="csrf_token" value="([^"]+)"/.exec(html)?.[1];
  assert.ok(action && csrfToken, `a form with a CSRF token on ${pathname}`);
  const buttons = [...html.matchAll(/<button[^>]*name="action" value="([^"]+)"/g)].map((m) => m[1]!);
  return { action: new URL(action.replaceAll('&amp;', '&'), base).toString(), csrfToken, buttons, html };
}

/** Submits the form with one button (and the given CSRF token); answers the status and Location. */
export async function submit(
  form: Pick<PageForm, 'action'>,
  action: string,
  csrfToken: string,
): Promise<{ status: number; location: string | null; body: string }> {
  const res = await fetch(form.action, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrf_token: csrfToken, action }).toString(),
    redirect: 'manual',
  });
  return { status: res.status, location: res.headers.get('location'), body: await res.text() };
}

/** Opens a checkout page and clicks Pay; answers where the browser is sent (the success address). */
export async function pay(base: string, checkoutUrl: string): Promise<URL> {
  const form = await openForm(base, checkoutUrl);
  assert.deepEqual(form.buttons, ['pay', 'cancel']);
  const sent = await submit(form, 'pay', form.csrfToken);
  assert.equal(sent.status, 303, sent.body);
  return new URL(sent.location!, base);
}
