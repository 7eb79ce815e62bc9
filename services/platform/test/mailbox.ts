// What the test mailbox (a real SMTP server, scripts/infra/mailbox-server.mjs, ADR 0308) received,
// read through its HTTP API: the account e-mails' tests find their messages and follow the links in
// them.
import { waitFor } from './support.js';

export interface ReceivedMail {
  id: string;
  messageId: string;
  subject: string;
  to: string[];
  text: string;
  html: string;
}

const api = () => {
  const url = process.env.MAILBOX_URL;
  if (!url) throw new Error('MAILBOX_URL is not set: run the tests through `npm test` (it starts the test mailbox)');
  return url.replace(/\/$/, '');
};

/** Where the services send (the SMTP side of the same mailbox). */
export function testSmtpUrl(): string {
  const url = process.env.SMTP_URL;
  if (!url) throw new Error('SMTP_URL is not set: run the tests through `npm test` (it starts the test mailbox)');
  return url;
}

/** Every message to `address` so far, oldest first. */
export async function mailTo(address: string): Promise<ReceivedMail[]> {
  const res = await fetch(`${api()}/messages?to=${encodeURIComponent(address)}`);
  if (!res.ok) throw new Error(`the test mailbox answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { messages: ReceivedMail[] }).messages;
}

/** Waits until `address` has received at least `count` messages whose subject contains `subject`; answers them. */
export async function waitForMail(address: string, subject: string, count = 1): Promise<ReceivedMail[]> {
  let found: ReceivedMail[] = [];
  await waitFor(
    async () => {
      found = (await mailTo(address)).filter((m) => m.subject.includes(subject));
      return found.length >= count;
    },
    `${count} e-mail(s) "${subject}" to ${address}`,
    60_000,
  );
  return found;
}

/** The link in a message that leads to `page` (e.g. /auth/reset-password), and the token in its fragment. */
export function linkIn(mail: ReceivedMail, page: string): { url: string; token: string } {
  const url = (mail.text.match(/https?:\/\/[^\s<>"]+/g) ?? []).find((u) => new URL(u).pathname === page);
  if (!url) throw new Error(`no link to ${page} in "${mail.subject}":\n${mail.text}`);
  const token = new URLSearchParams(new URL(url).hash.slice(1)).get('token') ?? '';
  return { url, token };
}
