import { z } from 'zod';
import { AppError, call } from '@flatlay/platform';
import { toApi } from '../api/api-view.js';
import { refusal } from '../api/responses.js';
import { route, type ApiRoute } from '../api/route.js';
import { hasBody } from '../api/validate.js';
import type { ServiceClients } from '../clients.js';
import { callerMetadata, callerOf } from '../http/auth.js';

const KeyStatus = z.enum(['active', 'inactive', 'invalid', 'unknown']).meta({
  description:
    'inactive: not set; unknown: set but not tested since it changed; active / invalid: the newest Test of its service passed / failed',
});

const SettingKey = z.string().meta({
  description:
    '{product}_api_key (product: the generative provider configured on the server), stripe_public_key, ' +
    'stripe_lite_price_id, stripe_pro_price_id, stripe_studio_price_id or stripe_agency_price_id',
});

const priceId = (plan: string) =>
  z
    .string({ error: `stripe_${plan}_price_id must be a string` })
    .max(255)
    .regex(/^[A-Za-z0-9_\-.:]*$/, { error: `stripe_${plan}_price_id may hold only letters, digits and _ - . :` })
    .optional();

const PRICE_SETTING = /^stripe_([a-z][a-z0-9_]*)_price_id$/;

/**
 * Whether a setting is offered: a plan's price id only while the catalogue sells that plan (the
 * page's pro and agency ids do nothing without one), every other setting always.
 */
async function offeredSettings(clients: ServiceClients): Promise<(key: string) => boolean> {
  let sold: Array<{ id: string }>;
  try {
    const b = clients.billing();
    ({ subscriptions: sold } = await call(b, b.listProducts, {}));
  } catch {
    // No billing to ask (not deployed, or down): every setting stays offered; billing itself
    // ignores a price id of a plan it does not sell.
    return () => true;
  }
  const plans = new Set(sold.map((p) => p.id));
  return (key) => {
    const plan = PRICE_SETTING.exec(key)?.[1];
    return plan === undefined || plans.has(plan);
  };
}
const TestOutcome = z.object({ success: z.boolean(), message: z.string() });
const KeyStatusRow = z.object({ key: SettingKey, status: KeyStatus });

const SettingsConfig = z.object({
  generative_provider: z.string().meta({ description: 'The {product} of {product}_api_key' }),
  generative_api_url: z.string(),
  stripe_secret_key_configured: z
    .boolean()
    .meta({ description: 'Whether the server holds a Stripe secret key (STRIPE_SECRET_KEY); never the key' }),
  stripe_api_url: z.string(),
  encryption_configured: z
    .boolean()
    .meta({ description: 'Whether secrets can be saved (SETTINGS_ENCRYPTION_KEY is configured)' }),
  keys: z.record(z.string(), z.string()).meta({
    description: 'Setting to value as the page shows it ("" when not set; a secret as ****1234)',
  }),
  settings: z.array(
    z.object({
      key: SettingKey,
      value: z.string(),
      secret: z.boolean(),
      is_set: z.boolean(),
      status: KeyStatus,
      service: z.string().meta({ description: 'The service whose Test covers the key' }),
      updated_at: z.string().meta({ description: 'ISO 8601 of the last change, or ""' }),
    }),
  ),
  testable_services: z.array(z.string()),
});

/**
 * /api/settings/*: the operator settings page (service keys, payment configuration). Administrators
 * only: the keys cost money when misused (docs/decisions/0802-operator-settings.md).
 */
export function settingsRoutes(clients: ServiceClients): ApiRoute[] {
  const tags = ['settings'];
  return [
    route({
      method: 'get',
      path: '/settings/keys/status',
      tags,
      access: 'admin',
      summary: 'Each setting and its status',
      responses: {
        200: {
          description: 'Every setting, in the page order',
          schema: z.array(KeyStatusRow),
          example: [
            { key: 'openai_api_key', status: 'active' },
            { key: 'stripe_public_key', status: 'unknown' },
            { key: 'stripe_lite_price_id', status: 'inactive' },
          ],
        },
      },
      async handle(req, res) {
        const a = clients.analytics();
        const { keys } = await call(a, a.getKeyStatuses, {}, { metadata: callerMetadata(req) });
        const offered = await offeredSettings(clients);
        res.json(keys.filter((k) => offered(k.key)).map((k) => toApi(KeyStatusRow, k)));
      },
    }),

    route({
      method: 'get',
      path: '/settings/config',
      tags,
      access: 'admin',
      summary: 'The non-secret configuration and the settings, secrets masked to their last 4 characters',
      responses: {
        200: {
          description: 'The configuration',
          schema: SettingsConfig,
        },
      },
      async handle(req, res) {
        const a = clients.analytics();
        const c = await call(a, a.getSettingsConfig, {}, { metadata: callerMetadata(req) });
        const offered = await offeredSettings(clients);
        c.settings = c.settings.filter((setting) => offered(setting.key));
        // keys: the settings again, as one object of key to value.
        res.json(toApi(SettingsConfig, { ...c, keys: Object.fromEntries(c.settings.map((s) => [s.key, s.value])) }));
      },
    }),

    route({
      method: 'post',
      path: '/settings/keys',
      tags,
      access: 'admin',
      summary: 'Saves settings: a value still in its masked form keeps the stored one, "" removes it',
      request: {
        body: {
          type: 'application/json',
          limit: 16_384,
          schema: z
            .object({
              stripe_public_key: z
                .string({ error: 'stripe_public_key must be a string' })
                .max(255)
                .regex(/^(pk_(test|live)_[A-Za-z0-9_]+)?$/, {
                  error: 'stripe_public_key must start with pk_test_ or pk_live_',
                })
                .optional(),
              ...Object.fromEntries(
                ['lite', 'pro', 'studio', 'agency'].map((plan) => [`stripe_${plan}_price_id`, priceId(plan)]),
              ),
            })
            // The generative provider's {product}_api_key: the product is the server's configuration.
            .catchall(
              z
                .string({ error: 'each setting value must be a string' })
                .max(500)
                .regex(/^\S*$/, { error: 'setting values must not contain spaces' }),
            )
            .meta({
              description:
                'Setting to value; "" removes a setting; a value still in its masked form (****1234) keeps the stored one',
            }),
        },
      },
      responses: {
        200: {
          description: 'Saved',
          schema: z.object({ message: z.string(), changed: z.array(z.string()), unchanged: z.array(z.string()) }),
          example: { message: 'Settings saved', changed: ['stripe_lite_price_id'], unchanged: ['openai_api_key'] },
        },
        404: refusal('NOT_FOUND', 'Unknown setting, or the price id of a plan that is not sold'),
        409: refusal('CONFLICT', 'A masked value that does not match the stored key (the form is out of date)'),
        501: refusal('NOT_CONFIGURED', 'SETTINGS_ENCRYPTION_KEY is not set: secrets cannot be stored'),
      },
      async handle(req, res, { body }) {
        // A bare POST would read as {} (nothing to change); the body is required, so say so.
        if (!hasBody(req)) throw new AppError('INVALID_ARGUMENT', 'Send the settings as a JSON object of key values');
        const offered = await offeredSettings(clients);
        const unsold = Object.keys(body).filter((key) => !offered(key));
        if (unsold.length > 0)
          throw new AppError('NOT_FOUND', `Unknown setting: ${unsold.join(', ')} (no such plan is sold)`);
        const a = clients.analytics();
        const r = await call(
          a,
          a.saveSettings,
          {
            operatorId: callerOf(req).userId,
            values: Object.fromEntries(
              Object.entries(body).filter((e): e is [string, string] => typeof e[1] === 'string'),
            ),
          },
          { metadata: callerMetadata(req) },
        );
        res.json({
          message: r.changed.length ? 'Settings saved' : 'Nothing changed',
          changed: r.changed,
          unchanged: r.unchanged,
        });
      },
    }),

    route({
      method: 'post',
      path: '/settings/test/:service',
      tags,
      access: 'admin',
      summary: "Tests a service's saved settings with one call to the provider",
      description:
        'service: the generative provider (its model list) or stripe (the balance, and each configured price id). ' +
        'A failure answers 200 with success false and "Connection failed: <reason>".',
      request: { params: z.object({ service: z.string().max(40).meta({ description: 'e.g. openai or stripe' }) }) },
      responses: {
        200: {
          description: 'The outcome',
          schema: TestOutcome,
          example: { success: false, message: 'Connection failed: openai refused the key: HTTP 401' },
        },
        404: refusal('NOT_FOUND', 'Unknown service'),
      },
      async handle(req, res, { params }) {
        const a = clients.analytics();
        const r = await call(
          a,
          a.testConnection,
          { service: params.service, operatorId: callerOf(req).userId },
          { metadata: callerMetadata(req), deadlineMs: 60_000 },
        );
        res.json(toApi(TestOutcome, r));
      },
    }),
  ];
}
