// The local payment provider's pages (checkout and billing portal), served by the product in
// place of Stripe's when no Stripe key is set. Billing renders them and acts on the forms (Pay
// or Cancel; cancel or resume), each guarded by the session's CSRF token; after a form the
// browser is sent on with a 303 (paid: the success address, after the signed event was handled).
import express, { type Request, type Response, type Router } from 'express';
import { AppError, call, escapeHtml, httpStatusOf, isAppError, type Logger } from '@flatlay/platform';
import type { ServiceClients } from '../clients.js';

const FORM_LIMIT = 4096;
const ID = /^[A-Za-z0-9_-]{1,128}$/;

const messagePage = (message: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>Payment</title></head>
<body style="font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem">
<h1>Payment</h1><p>${escapeHtml(message)}</p><p><a href="/">Back to Flatlay</a></p></body></html>`;

const field = (body: unknown, name: string) => {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
};

export function localPaymentPages(clients: ServiceClients, logger: Logger): Router {
  const router = express.Router();
  const form = express.urlencoded({ extended: false, limit: FORM_LIMIT });

  /** An error as a page a person reads: the local provider not in use is a plain 404. */
  const fail = (res: Response, error: unknown) => {
    const e = isAppError(error) ? error : new AppError('INTERNAL', 'Something went wrong on our side.');
    if (e.code === 'INTERNAL') logger.error({ err: error }, 'local payment page failed');
    const status = e.code === 'NOT_CONFIGURED' ? 404 : httpStatusOf(e.code);
    const message = e.code === 'NOT_CONFIGURED' ? 'This page does not exist.' : e.message;
    res.status(status).type('html').setHeader('Cache-Control', 'no-store').send(messagePage(message));
  };

  const page =
    (render: (id: string) => Promise<{ status: number; html: string }>) => async (req: Request, res: Response) => {
      try {
        const id = String(req.params.id);
        if (!ID.test(id)) throw new AppError('NOT_FOUND', 'This page does not exist or has expired.');
        const { status, html } = await render(id);
        res.status(status).type('html').setHeader('Cache-Control', 'no-store').send(html);
      } catch (error) {
        fail(res, error);
      }
    };

  const submit =
    (act: (id: string, action: string, csrf: string) => Promise<string>) => async (req: Request, res: Response) => {
      try {
        const id = String(req.params.id);
        if (!ID.test(id)) throw new AppError('NOT_FOUND', 'This page does not exist or has expired.');
        res.redirect(303, await act(id, field(req.body, 'action'), field(req.body, 'csrf_token')));
      } catch (error) {
        fail(res, error);
      }
    };

  const billing = () => clients.billing();
  router.get(
    '/checkout/local/:id',
    page(async (sessionId) => {
      const b = billing();
      return call(b, b.renderLocalCheckout, { sessionId });
    }),
  );
  router.post(
    '/checkout/local/:id',
    form,
    submit(async (sessionId, action, csrfToken) => {
      const b = billing();
      // Pay hands a signed event to the webhook handler before answering: more than a plain read.
      return (await call(b, b.submitLocalCheckout, { sessionId, action, csrfToken }, { deadlineMs: 30_000 }))
        .redirectUrl;
    }),
  );
  router.get(
    '/billing/local/:id',
    page(async (portalSessionId) => {
      const b = billing();
      return call(b, b.renderLocalPortal, { portalSessionId });
    }),
  );
  router.post(
    '/billing/local/:id',
    form,
    submit(async (portalSessionId, action, csrfToken) => {
      const b = billing();
      return (await call(b, b.submitLocalPortal, { portalSessionId, action, csrfToken }, { deadlineMs: 30_000 }))
        .redirectUrl;
    }),
  );
  return router;
}
