// The mail settings every service that sends e-mail reads (identity's account e-mail, billing's
// receipts): one schema, so both validate and document them the same way.
import { z } from 'zod';

export const mailEnvSchema = z.object({
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^\s]+$/, 'must be an smtp:// or smtps:// URL')
    .optional()
    .meta({
      description:
        "where e-mail is sent: identity's account e-mail (verify address, reset password, address changed, data export) and billing's payment receipts; `smtp://user:password@host:587` (STARTTLS when the server offers it) or `smtps://…:465`; unset: each message is written to `MAIL_DIR` and its links are logged (under `NODE_ENV=production` each service warns at start that its mail reaches no one)",
    }),
  MAIL_FROM: z.string().min(3).default('Flatlay <no-reply@flatlay.localhost>').meta({
    description: 'the sender of account e-mail and receipts, e.g. `Flatlay <no-reply@example.com>`',
  }),
  MAIL_DIR: z.string().min(1).optional().meta({
    description: 'with no `SMTP_URL`: the folder each message is written to (an `.eml` file)',
    default: 'unset (embedded: `$FLATLAY_DATA_DIR/mail`; otherwise `flatlay-mail` in the system temporary folder)',
  }),
});
