// Live status of the caller's images as Server-Sent Events. EventSource cannot send headers, so
// the stream is opened with a short-lived ticket in the query (never the access token: URLs end
// up in logs and history). The gateway learns changes by asking the image service (ADR 0102).
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { AppError, call, type Logger } from '@flatlay/platform';
import { refusal } from '../api/responses.js';
import { route, type ApiRoute } from '../api/route.js';
import type { ServiceClients } from '../clients.js';
import { callerOf } from '../http/auth.js';
import { imageJson, type ImageJson } from './image-bodies.js';

export const TICKET_SECONDS = 60;
const POLL_MS = 2_000;
const TICKET_REFUSED = 'Not authenticated: the events ticket is invalid or has expired; ask for a new one';

/** A ticket: `<userId>.<expires>.<nonce>` and its HMAC, base64url; valid for a minute. */
export function eventTickets(urlKey: Buffer, clock: () => Date = () => new Date()) {
  const key = createHmac('sha256', urlKey).update('flatlay image events ticket v1').digest();
  const mac = (payload: string) => createHmac('sha256', key).update(payload).digest('base64url');
  return {
    issue(userId: string): string {
      const expires = Math.floor(clock().getTime() / 1000) + TICKET_SECONDS;
      const payload = Buffer.from(`${userId}.${expires}.${randomUUID()}`).toString('base64url');
      return `${payload}.${mac(payload)}`;
    },
    /** The user a ticket names, or undefined when it is forged or expired. */
    check(ticket: string): string | undefined {
      const [payload, sig] = ticket.split('.');
      if (!payload || !sig) return undefined;
      const expected = Buffer.from(mac(payload));
      const given = Buffer.from(sig);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
      const [userId, expires] = Buffer.from(payload, 'base64url').toString().split('.');
      if (!userId || Number(expires) * 1000 <= clock().getTime()) return undefined;
      return userId;
    },
  };
}

const fingerprint = (i: ImageJson) => `${i.status}/${i.is_locked}`;

export function imageEventRoutes(clients: ServiceClients, options: { urlKey: Buffer; logger: Logger }): ApiRoute[] {
  const tags = ['images'];
  const tickets = eventTickets(options.urlKey);
  return [
    route({
      method: 'post',
      path: '/images/events/ticket',
      tags,
      access: 'user',
      summary: 'A ticket to open GET /images/events with (valid for 60 seconds)',
      responses: {
        200: {
          description: 'The ticket',
          schema: z.object({ ticket: z.string(), expires_in: z.number().int().meta({ description: 'Seconds' }) }),
        },
      },
      handle(req, res) {
        res.json({ ticket: tickets.issue(callerOf(req).userId), expires_in: TICKET_SECONDS });
      },
    }),
    route({
      method: 'get',
      path: '/images/events',
      tags,
      access: 'none',
      summary: "Status changes of the caller's images, as Server-Sent Events",
      description:
        'Opened with a ticket from POST /images/events/ticket (EventSource cannot send a bearer header, and an access token in a URL would end up in logs). Each change of an image (status, lock) arrives as an `image` event whose data is the image as GET /images/ lists it. The server ends the stream after `seconds`; ask for a new ticket to reconnect.',
      request: {
        query: z.object({
          ticket: z.string({ error: 'ticket is required' }).min(1, { error: 'ticket is required' }),
          seconds: z.coerce
            .number({ error: 'seconds must be an integer from 1 to 3600' })
            .int({ error: 'seconds must be an integer from 1 to 3600' })
            .min(1, { error: 'seconds must be an integer from 1 to 3600' })
            .max(3600, { error: 'seconds must be an integer from 1 to 3600' })
            .default(600)
            .meta({ type: 'integer', description: 'How long the stream stays open' }),
        }),
      },
      responses: {
        200: {
          description: 'An event stream: `ready` once, then an `image` event per change',
          mediaType: 'text/event-stream',
          // Each event's data: {} for `ready`, the image (as GET /images/ lists it) for `image`.
          schema: z.object({}).loose().meta({ description: "An event's data (JSON)" }),
        },
        401: refusal('UNAUTHENTICATED', TICKET_REFUSED, 'No, a forged or an expired ticket'),
      },
      async handle(req, res, { query }) {
        const userId = tickets.check(query.ticket);
        if (!userId) throw new AppError('UNAUTHENTICATED', TICKET_REFUSED);
        const c = clients.image();
        const page = async () => (await call(c, c.listImages, { userId, page: 1, limit: 50 })).images.map(imageJson);
        const seen = new Map((await page()).map((i) => [i.id, fingerprint(i)]));
        res.status(200);
        res.setHeader('Content-Type', 'text/event-stream');
        res.setHeader('Cache-Control', 'no-store');
        res.setHeader('X-Accel-Buffering', 'no');
        res.flushHeaders();
        res.write(`retry: ${POLL_MS}\nevent: ready\ndata: {}\n\n`);
        let closed = false;
        const poll = async () => {
          try {
            for (const image of await page()) {
              const f = fingerprint(image);
              if (seen.get(image.id) === f) continue;
              seen.set(image.id, f);
              res.write(`event: image\nid: ${image.id}\ndata: ${JSON.stringify(image)}\n\n`);
            }
          } catch (err) {
            options.logger.warn({ err }, 'image events: the image service did not answer');
          }
        };
        await new Promise<void>((done) => {
          const timer = setInterval(() => void poll(), POLL_MS);
          const end = setTimeout(stop, query.seconds * 1000);
          function stop() {
            if (closed) return;
            closed = true;
            clearInterval(timer);
            clearTimeout(end);
            done();
          }
          req.on('close', stop);
        });
        if (!res.writableEnded) res.end();
      },
    }),
  ];
}
