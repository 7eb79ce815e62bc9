import { z } from 'zod';
import { call } from '@flatlay/platform';
import { refusal } from '../api/responses.js';
import { route, type ApiRoute } from '../api/route.js';
import { emailField, NewPassword, passwordField, Session } from '../api/schemas.js';
import type { ServiceClients } from '../clients.js';
import { callerMetadata, callerOf } from '../http/auth.js';
import { userBody } from './auth.js';

// Accounts people look after themselves (ADR 0402): prove an address, get back in with a reset
// link, change the password or the address. Links arrive by e-mail; their token is the fragment of
// the link's address (never sent to a server by the browser), posted here by the page it opens.

const Message = z.object({ message: z.string() });
const LinkToken = z
  .string({ error: 'token is required: open the link from the e-mail' })
  .min(1, { error: 'token is required: open the link from the e-mail' })
  .max(4096, { error: 'token is too long: open the link from the e-mail' })
  .meta({ description: "The token from the e-mailed link (the part after '#token=')" });
const linkRefused = refusal(
  'NOT_FOUND',
  'This password reset link has expired or was already used. Ask for a new one from the sign-in page.',
  'The token is not one of ours, was used, replaced by a newer e-mail, or has expired: the message says what to do next',
);
const json = <S extends z.ZodType>(schema: S) => ({
  body: { type: 'application/json' as const, limit: 16_384, schema },
});

export const RESET_REQUESTED =
  'If an account uses this address, we have sent it a link to choose a new password. The link works for 1 hour; check your spam folder if it does not arrive within a few minutes.';

export const EXPORT_REQUESTED =
  'We are putting your data together. We will e-mail you a link to download it (valid 7 days), usually within a few minutes.';

/**
 * `exportRequested`: tells this instance's export worker to look now (ADR 0403); without it, a
 * worker of any instance finds the request on its next round.
 */
export function accountCareRoutes(clients: ServiceClients, exportRequested?: () => void): ApiRoute[] {
  const tags = ['auth'];
  const identityClient = () => clients.identity();

  return [
    route({
      method: 'post',
      path: '/auth/verify-email/send',
      tags,
      access: 'user',
      rateLimit: { action: 'verify-email' },
      summary: 'Send a new link that verifies the caller’s e-mail address (valid 24 hours)',
      responses: {
        200: {
          description: 'Sent, or nothing to do',
          schema: Message.extend({
            sent: z.boolean().meta({ description: 'False when the address is verified already' }),
          }),
          example: { message: 'We have sent you a new link. It works for 24 hours.', sent: true },
        },
      },
      async handle(req, res) {
        const c = identityClient();
        const { sent } = await call(
          c,
          c.requestEmailVerification,
          { userId: callerOf(req).userId },
          { metadata: callerMetadata(req) },
        );
        res.json({
          sent,
          message: sent
            ? 'We have sent you a new link. It works for 24 hours.'
            : 'Your e-mail address is already verified.',
        });
      },
    }),

    route({
      method: 'post',
      path: '/auth/verify-email',
      tags,
      access: 'none',
      rateLimit: { action: 'use-link' },
      summary: 'Verify an e-mail address with the token of the link sent to it',
      request: json(z.object({ token: LinkToken })),
      responses: {
        200: { description: 'Verified', schema: Message, example: { message: 'Your e-mail address is verified.' } },
        404: linkRefused,
      },
      async handle(_req, res, { body }) {
        const c = identityClient();
        await call(c, c.verifyEmail, { token: body.token });
        res.json({ message: 'Your e-mail address is verified.' });
      },
    }),

    route({
      method: 'post',
      path: '/auth/forgot-password',
      tags,
      access: 'none',
      rateLimit: { action: 'forgot-password' },
      summary:
        'E-mail a link to choose a new password (valid 1 hour); the same answer whether or not the address has an account',
      request: json(z.object({ email: emailField() })),
      responses: {
        202: { description: 'Accepted (nothing revealed)', schema: Message, example: { message: RESET_REQUESTED } },
      },
      async handle(_req, res, { body }) {
        const c = identityClient();
        await call(c, c.requestPasswordReset, { email: body.email });
        res.status(202).json({ message: RESET_REQUESTED });
      },
    }),

    route({
      method: 'post',
      path: '/auth/reset-password',
      tags,
      access: 'none',
      rateLimit: { action: 'use-link' },
      summary: 'Choose a new password with the token of a reset link; every session of the account ends',
      request: json(z.object({ token: LinkToken, password: NewPassword })),
      responses: {
        200: {
          description: 'Password changed',
          schema: Message,
          example: { message: 'Your password has been changed. Please sign in with it.' },
        },
        404: linkRefused,
      },
      async handle(_req, res, { body }) {
        const c = identityClient();
        await call(c, c.resetPassword, { token: body.token, newPassword: body.password });
        res.json({ message: 'Your password has been changed. Please sign in with it.' });
      },
    }),

    route({
      method: 'post',
      path: '/auth/change-password',
      tags,
      access: 'user',
      rateLimit: { action: 'change-password' },
      summary: 'Change the password (the current one required); every other session ends, this one gets a new token',
      request: json(
        z.object({
          current_password: passwordField('The current password is required'),
          new_password: NewPassword,
        }),
      ),
      responses: {
        200: { description: 'Changed; a new session for the caller', schema: Session },
        422: refusal('UNPROCESSABLE', 'The current password is not correct'),
      },
      async handle(req, res, { body }) {
        const c = identityClient();
        const metadata = callerMetadata(req);
        const s = await call(
          c,
          c.changePassword,
          { userId: callerOf(req).userId, currentPassword: body.current_password, newPassword: body.new_password },
          { metadata, deadlineMs: 15_000 },
        );
        const l = clients.ledger();
        const { balance } = await call(l, l.getBalance, { userId: callerOf(req).userId }, { metadata });
        res.json({ access_token: s.accessToken, token_type: 'bearer' as const, user: userBody(s.user, balance) });
      },
    }),

    route({
      method: 'post',
      path: '/auth/change-email',
      tags,
      access: 'user',
      rateLimit: { action: 'change-email' },
      summary: 'Move the account to a new address: a link is sent there, and nothing changes until it is used',
      request: json(
        z.object({ new_email: emailField(), password: passwordField('Your current password is required') }),
      ),
      responses: {
        202: {
          description: 'Confirmation sent to the new address',
          schema: Message,
          example: { message: 'We have sent a link to ada@example.org. Open it within 24 hours to use that address.' },
        },
        422: refusal('UNPROCESSABLE', 'The current password is not correct'),
        409: refusal(
          'ALREADY_EXISTS',
          'An account with this email already exists',
          'The address is another account’s, or already this one’s',
        ),
      },
      async handle(req, res, { body }) {
        const c = identityClient();
        await call(
          c,
          c.requestEmailChange,
          { userId: callerOf(req).userId, password: body.password, newEmail: body.new_email },
          { metadata: callerMetadata(req), deadlineMs: 15_000 },
        );
        res.status(202).json({
          message: `We have sent a link to ${body.new_email.trim()}. Open it within 24 hours to use that address.`,
        });
      },
    }),

    route({
      method: 'post',
      path: '/auth/confirm-email',
      tags,
      access: 'none',
      rateLimit: { action: 'use-link' },
      summary: 'Confirm a new e-mail address with the token of the link sent to it; the old address is told',
      request: json(z.object({ token: LinkToken })),
      responses: {
        200: {
          description: 'The account uses the new address',
          schema: Message.extend({ email: z.string() }),
          example: { message: 'Your account now uses ada@example.org.', email: 'ada@example.org' },
        },
        404: linkRefused,
        409: refusal('ALREADY_EXISTS', 'An account with this email already exists'),
      },
      async handle(_req, res, { body }) {
        const c = identityClient();
        const { user } = await call(c, c.confirmEmailChange, { token: body.token });
        const email = user?.email ?? '';
        res.json({ message: `Your account now uses ${email}.`, email });
      },
    }),
    route({
      method: 'post',
      path: '/auth/export',
      tags,
      access: 'user',
      rateLimit: { action: 'export-data' },
      summary:
        'Export the caller’s data: a JSON archive of the profile, token history, payments and images (with links to the files) is made in the background and e-mailed as a link valid 7 days',
      responses: {
        202: {
          description:
            'Accepted: the link will be e-mailed (asking again while one is being made answers the same request)',
          schema: Message.extend({ export_id: z.string().meta({ description: 'The export request' }) }),
          example: { message: EXPORT_REQUESTED, export_id: '6f1c1f4e-4a53-4a0e-9a1f-0d6a1c2b7e11' },
        },
      },
      async handle(req, res) {
        const c = identityClient();
        const { exportId } = await call(
          c,
          c.requestDataExport,
          { userId: callerOf(req).userId },
          { metadata: callerMetadata(req) },
        );
        exportRequested?.();
        res.status(202).json({ message: EXPORT_REQUESTED, export_id: exportId });
      },
    }),
    route({
      method: 'post',
      path: '/auth/delete-account',
      tags,
      access: 'user',
      rateLimit: { action: 'delete-account' },
      summary:
        'Delete the caller’s own account (password and the typed word DELETE): tokens, images and personal data go, a subscription stops renewing, and a confirmation is e-mailed',
      request: json(
        z.object({
          password: passwordField('Your password is required to delete your account'),
          confirmation: z
            .literal('DELETE', { error: 'Type DELETE to confirm that your account should be deleted' })
            .meta({ description: 'The word DELETE, typed by the person' }),
        }),
      ),
      responses: {
        200: {
          description: 'Deleted; every session of the account has ended',
          schema: Message,
          example: { message: 'Your account has been deleted. We have sent a confirmation to your e-mail address.' },
        },
        422: refusal('UNPROCESSABLE', 'The password is not correct'),
      },
      async handle(req, res, { body }) {
        const c = identityClient();
        await call(
          c,
          c.deleteOwnAccount,
          { userId: callerOf(req).userId, password: body.password, confirmation: body.confirmation },
          { metadata: callerMetadata(req), deadlineMs: 15_000 },
        );
        res.json({ message: 'Your account has been deleted. We have sent a confirmation to your e-mail address.' });
      },
    }),
  ];
}
