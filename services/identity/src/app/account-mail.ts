import { escapeHtml, type MailMessage, type QueuedMail, type Queryable } from '@flatlay/platform';
import { LINK_PAGES, type LinkPurpose } from '../domain/index.js';
import { linkStore } from '../adapters/link-store.js';
import type { LinkTokens } from './link-tokens.js';

/** The messages identity sends; each a row kind of its mail outbox. */
export type AccountMailKind =
  | 'verify-email'
  | 'reset-password'
  | 'confirm-new-email'
  | 'email-changed'
  | 'account-deleted'
  | 'data-export-ready'
  | 'data-export-failed';

const PURPOSE_OF: Partial<Record<AccountMailKind, LinkPurpose>> = {
  'verify-email': 'verify-email',
  'reset-password': 'reset-password',
  'confirm-new-email': 'change-email',
};

/** Plain text is the message; the HTML is the same paragraphs, with the link as a button. */
function message(
  to: string,
  subject: string,
  paragraphs: string[],
  link?: { url: string; label: string },
): MailMessage {
  const text = [...paragraphs, ...(link ? [`${link.label}: ${link.url}`] : []), '— Flatlay'].join('\n\n');
  const html = [
    ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    ...(link
      ? [
          `<p><a href="${escapeHtml(link.url)}" style="display:inline-block;padding:10px 18px;background:#111;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(link.label)}</a></p>`,
          `<p style="color:#666;font-size:13px">Or paste this address into your browser: ${escapeHtml(link.url)}</p>`,
        ]
      : []),
    '<p>— Flatlay</p>',
  ].join('\n');
  return { to, subject, text, html };
}

/**
 * Renders a queued account message when it is sent. A link's token is signed now (nothing
 * usable waits in the outbox), and a message whose link was used or replaced meanwhile is not
 * sent at all (undefined).
 */
export function accountMailRenderer(deps: {
  db: Queryable;
  links: LinkTokens;
  publicBaseUrl: string;
  clock?: () => Date;
}) {
  const clock = deps.clock ?? (() => new Date());
  const base = deps.publicBaseUrl.replace(/\/$/, '');
  return async (mail: QueuedMail): Promise<MailMessage | undefined> => {
    const kind = mail.kind as AccountMailKind;
    const purpose = PURPOSE_OF[kind];
    let url = '';
    if (purpose) {
      const link = await linkStore.byId(deps.db, mail.params.linkId ?? '');
      if (!link || link.usedAt || link.expiresAt.getTime() <= clock().getTime()) return undefined;
      // The token travels in the fragment: browsers never send it to a server or in a Referer.
      url = `${base}${LINK_PAGES[purpose]}#token=${await deps.links.sign(link)}`;
    }
    switch (kind) {
      case 'verify-email':
        return message(
          mail.recipient,
          'Confirm your e-mail address for Flatlay',
          [
            'Welcome to Flatlay! Please confirm that this is your e-mail address.',
            'The link works once, for 24 hours. If you did not sign up, ignore this message and nothing happens.',
          ],
          { url, label: 'Confirm my e-mail address' },
        );
      case 'reset-password':
        return message(
          mail.recipient,
          'Reset your Flatlay password',
          [
            'Someone (we hope you) asked to reset the password of your Flatlay account.',
            'The link works once, for 1 hour. Choosing a new password signs you out everywhere else. If you did not ask, ignore this message: your password stays as it is.',
          ],
          { url, label: 'Choose a new password' },
        );
      case 'confirm-new-email':
        return message(
          mail.recipient,
          'Confirm your new e-mail address for Flatlay',
          [
            'Please confirm that your Flatlay account should use this e-mail address from now on.',
            'The link works once, for 24 hours. Until you confirm, your account keeps its current address.',
          ],
          { url, label: 'Use this address' },
        );
      case 'email-changed':
        return message(mail.recipient, 'Your Flatlay e-mail address was changed', [
          `Your Flatlay account now signs in with ${mail.params.newEmail ?? 'a new address'}; this address is no longer used for it.`,
          'If you did not make this change, reply to this message at once so we can help you get your account back.',
        ]);
      case 'account-deleted':
        return message(mail.recipient, 'Your Flatlay account was deleted', [
          'Your Flatlay account, its tokens and its images have been deleted, and any subscription was ended.',
          'Thank you for having used Flatlay. You are welcome back any time.',
        ]);
      case 'data-export-ready': {
        // The archive's link is a signed file URL (ADR 0403): it waits in the outbox only until sent.
        const until = new Date(mail.params.expiresAt ?? '');
        const day = Number.isNaN(until.getTime()) ? 'in 7 days' : `on ${until.toUTCString()}`;
        return message(
          mail.recipient,
          'Your Flatlay data export is ready',
          [
            'The export of your Flatlay data you asked for is ready: your profile, your token history, your payments and your images (with links to their files), as one JSON file.',
            `The link works for anyone who has it until it expires ${day}, so keep this message to yourself. If you did not ask for an export, change your password.`,
          ],
          { url: `${base}${mail.params.archivePath ?? '/'}`, label: 'Download my data' },
        );
      }
      case 'data-export-failed':
        return message(
          mail.recipient,
          'Your Flatlay data export could not be made',
          [
            'We tried several times to make the export of your Flatlay data you asked for, and could not. Nothing about your account has changed.',
            'Please ask for it again from your account page in a while; if it fails again, reply to this message and we will send it to you.',
          ],
          { url: `${base}/account`, label: 'Open my account' },
        );
      default:
        throw new Error(`unknown account mail kind ${mail.kind}`);
    }
  };
}
