// Live status of the caller's images as Server-Sent Events. EventSource cannot send headers, so
// the stream is opened with a short-lived ticket in the query (never the access token in the
// clear: URLs end up in logs and history). The gateway learns changes by asking the image
// service (ADR 0102). A stream lives as long as the session that asked for its ticket: the ticket
// carries that session's access token sealed, and every poll asks identity (through the gateway
// cache, which a logout, a deletion or a session cut on any instance invalidates at once) whether
// the session still holds; when it does not, the stream ends within a poll.
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
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

/** Whose stream a ticket opens: the user, and the access token of the session that asked for it. */
export interface TicketHolder {
  userId: string;
  token: string;
}

/**
 * A ticket: `{ u: userId, t: accessToken, e: expires }` sealed with AES-256-GCM (a key derived
 * from the file-URL key, which only gateways hold), base64url; valid for a minute. Sealed, not
 * just signed: a ticket left in a log must not hand out the access token inside it.
 */
export function eventTickets(urlKey: Buffer, clock: () => Date = () => new Date()) {
  const key = createHmac('sha256', urlKey).update('flatlay image events ticket v2').digest();
  return {
    issue(holder: TicketHolder): string {
      const expires = Math.floor(clock().getTime() / 1000) + TICKET_SECONDS;
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const sealed = Buffer.concat([
        cipher.update(JSON.stringify({ u: holder.userId, t: holder.token, e: expires })),
        cipher.final(),
      ]);
      return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
    },
    /** Whom a ticket names, or undefined when it is forged, altered or expired. */
    check(ticket: string): TicketHolder | undefined {
      const raw = Buffer.from(ticket, 'base64url');
      if (raw.length <= 28) return undefined;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
        decipher.setAuthTag(raw.subarray(12, 28));
        const opened = JSON.parse(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString()) as {
          u?: unknown;
          t?: unknown;
          e?: unknown;
        };
        if (typeof opened.u !== 'string' || typeof opened.t !== 'string' || typeof opened.e !== 'number')
          return undefined;
        if (!opened.u || opened.e * 1000 <= clock().getTime()) return undefined;
        return { userId: opened.u, token: opened.t };
      } catch {
        return undefined;
      }
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
        const caller = callerOf(req);
        res.json({ ticket: tickets.issue({ userId: caller.userId, token: caller.token }), expires_in: TICKET_SECONDS });
      },
    }),
    route({
      method: 'get',
      path: '/images/events',
      tags,
      access: 'none',
      summary: "Status changes of the caller's images, as Server-Sent Events",
      description:
        'Opened with a ticket from POST /images/events/ticket (EventSource cannot send a bearer header, and an access token in a URL would end up in logs). Each change of an image (status, lock) arrives as an `image` event whose data is the image as GET /images/ lists it. The server ends the stream after `seconds`, and as soon as the session that asked for the ticket ends (logout, deletion of the account, a session cut); ask for a new ticket to reconnect.',
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
        const holder = tickets.check(query.ticket);
        if (!holder) throw new AppError('UNAUTHENTICATED', TICKET_REFUSED);
        const { userId } = holder;
        // Whether the ticket's session still holds: identity's VerifyToken (revocation, session
        // cuts, the user's existence), served by the gateway cache until something invalidates it.
        const sessionHolds = async (): Promise<boolean> => {
          const i = clients.identity();
          try {
            const v = await call(i, i.verifyToken, { token: holder.token }, { deadlineMs: 3_000 });
            return v.userId === userId;
          } catch (error) {
            if (error instanceof AppError && error.code === 'UNAUTHENTICATED') return false;
            throw error;
          }
        };
        if (!(await sessionHolds())) throw new AppError('UNAUTHENTICATED', TICKET_REFUSED);
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
        let polling = false;
        let endStream = () => {};
        const poll = async () => {
          if (polling || closed) return;
          polling = true;
          try {
            if (!(await sessionHolds())) {
              options.logger.debug({ userId }, 'image events: the session ended, so does its stream');
              return endStream();
            }
            for (const image of await page()) {
              const f = fingerprint(image);
              if (seen.get(image.id) === f) continue;
              seen.set(image.id, f);
              res.write(`event: image\nid: ${image.id}\ndata: ${JSON.stringify(image)}\n\n`);
            }
          } catch (err) {
            // An outage ends nothing: the stream goes on and asks again at the next poll.
            options.logger.warn({ err }, 'image events: identity or the image service did not answer');
          } finally {
            polling = false;
          }
        };
        await new Promise<void>((done) => {
          const timer = setInterval(() => void poll(), POLL_MS);
          const end = setTimeout(stop, query.seconds * 1000);
          endStream = stop;
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
