// The shapes /api shares between operations: the error body, the profile, a session, the
// credentials a person types. Each carries its id (a component of the document) and examples.
// The rules here are the ones the server enforces, so the document says exactly what is refused.
import { z } from 'zod';

/** Every 4xx/5xx body: `detail` and `message` are the same text, written for a person. */
export const ErrorBody = z
  .object({
    detail: z.string().meta({ description: 'What went wrong and what to do about it' }),
    message: z.string().meta({ description: 'The same text as detail' }),
    code: z.string().meta({ description: 'Error code, e.g. INVALID_ARGUMENT, UNAUTHENTICATED, NOT_CONFIGURED' }),
    context: z
      .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
      .optional()
      .meta({ description: 'Facts a client may need, e.g. retryAfterSeconds' }),
  })
  .meta({
    id: 'Error',
    example: {
      detail: 'Please enter a valid email address',
      message: 'Please enter a valid email address',
      code: 'INVALID_ARGUMENT',
    },
  });

// What an address may look like, so the document and the server agree exactly: one at-sign, a
// local part of the characters every mail system takes (RFC 5322 dot-atom), dot-separated
// domain labels ending in a TLD of letters. Blanks around it are allowed: the identity service
// trims what people type (and compares case-insensitively).
const EMAIL_SHAPE =
  /^[ \t]*(?=[^@ \t]{1,64}@)[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]{2,63}[ \t]*$/;
export const EMAIL_MAX_LENGTH = 254;
export const PASSWORD_MIN_LENGTH = 8;
/** Long enough for any passphrase, short enough that hashing cannot be used to burn CPU. */
export const PASSWORD_MAX_LENGTH = 256;

const chars = (s: string) => [...s].length;

/**
 * An e-mail address a person types. `missing` is the answer when it is absent or blank (each
 * form says it in its own words, e.g. "Email and password are required" at sign-in).
 */
export const emailField = (missing = 'Email is required', name = 'email') =>
  z
    .string({ error: (i) => (i.input === undefined || i.input === null ? missing : `${name} must be a string`) })
    .max(EMAIL_MAX_LENGTH, { error: 'Please enter a valid email address' })
    .regex(EMAIL_SHAPE, {
      error: (i) => (String(i.input).trim() === '' ? missing : 'Please enter a valid email address'),
    })
    .meta({ format: 'email', maxLength: EMAIL_MAX_LENGTH, example: 'ada@example.com' });

/** A password at sign-in: never empty, never longer than any password we accept. Lengths count characters. */
export const passwordField = (missing = 'Password is required') =>
  z
    .string({ error: (i) => (i.input === undefined || i.input === null ? missing : 'password must be a string') })
    .min(1, { error: missing, abort: true })
    .refine((s) => chars(s) <= PASSWORD_MAX_LENGTH, {
      error: `Password must be at most ${PASSWORD_MAX_LENGTH} characters long`,
    })
    .meta({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH, example: 'correct horse battery' });

/** A new password (sign-up): at least 8 and at most 256 characters. */
export const NewPassword = z
  .string({
    error: (i) => (i.input === undefined || i.input === null ? 'Password is required' : 'password must be a string'),
  })
  .min(1, { error: 'Password is required', abort: true })
  .refine((s) => chars(s) >= PASSWORD_MIN_LENGTH, {
    error: `Password must be at least ${PASSWORD_MIN_LENGTH} characters long`,
    abort: true,
  })
  .refine((s) => chars(s) <= PASSWORD_MAX_LENGTH, {
    error: `Password must be at most ${PASSWORD_MAX_LENGTH} characters long`,
  })
  .meta({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH, example: 'correct horse battery' });

const nullableString = (description?: string) =>
  z
    .string()
    .nullable()
    .meta(description ? { description } : {});
const dateTime = () => z.iso.datetime().nullable();

/** The profile as the web client reads it, with the ledger's balance. */
export const User = z
  .object({
    id: z.uuid(),
    // No format here: an address from Google or Supabase is stored as the provider gave it.
    email: z.string(),
    tokenBalance: z.number().int(),
    firstName: nullableString(),
    lastName: nullableString(),
    name: z.string().meta({ description: 'First plus last name, else first name, else the e-mail local part' }),
    avatarUrl: nullableString().meta({ format: 'uri' }),
    stripeCustomerId: nullableString(),
    stripeSubscriptionId: nullableString(),
    subscriptionPlan: z.enum(['none', 'lite', 'studio', 'bulk', 'unlimited']),
    subscriptionStatus: z.enum(['active', 'past_due', 'canceled']).nullable(),
    subscriptionPlanName: nullableString(),
    subscriptionPeriodEnd: dateTime(),
    isUnlimited: z.boolean(),
    role: z.enum(['user', 'admin']),
    createdAt: dateTime(),
    emailVerified: z.boolean().meta({
      description:
        'Whether the person proved the address: a link from the verification or reset e-mail, or a verified Google or Supabase sign-in',
    }),
  })
  .meta({
    id: 'User',
    example: {
      id: '7f3c2a10-4b5e-4c1d-9a8b-2f6e1d0c9b8a',
      email: 'ada@example.com',
      tokenBalance: 200,
      firstName: null,
      lastName: null,
      name: 'ada',
      avatarUrl: null,
      stripeCustomerId: null,
      stripeSubscriptionId: null,
      subscriptionPlan: 'none',
      subscriptionStatus: null,
      subscriptionPlanName: null,
      subscriptionPeriodEnd: null,
      isUnlimited: false,
      role: 'user',
      createdAt: '2025-01-31T09:30:00.000Z',
      emailVerified: true,
    },
  });

export const Session = z
  .object({
    access_token: z.string().meta({ description: 'Bearer access token (JWT)' }),
    token_type: z.literal('bearer'),
    user: User,
  })
  .meta({ id: 'Session' });

export const Transaction = z
  .object({
    id: z.string(),
    description: z.string(),
    amount: z.number().int().meta({ description: 'Positive for credits, negative for debits' }),
    createdAt: dateTime(),
  })
  .meta({
    id: 'Transaction',
    example: { id: 'a1b2c3', description: 'Sign-up bonus', amount: 200, createdAt: '2025-01-31T09:30:00.000Z' },
  });
