// The operator settings API end to end: gateway, identity and analytics on real Postgres and
// Kafka; Stripe is stripe-mock, the generative provider a local OpenAI-compatible fake.
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { events, eventTypes, topics } from '@flatlay/proto';
import { decodeEnvelope, openSetting, type Pool } from '@flatlay/platform';
import { requireEnv, waitFor } from '../../services/platform/test/support.js';
import type { paths } from '../src/api/openapi-types.js';
import { startStack, type Stack, type TokenBody, type UserBody } from './support/stack.js';

type Ok<P extends keyof paths, M extends 'get' | 'post'> = paths[P][M] extends {
  responses: { 200: { content: { 'application/json': infer B } } };
}
  ? B
  : never;
type Statuses = Ok<'/settings/keys/status', 'get'>;
type Config = Ok<'/settings/config', 'get'>;
type Saved = Ok<'/settings/keys', 'post'>;
type Tested = Ok<'/settings/test/{service}', 'post'>;

const PROVIDER = 'testai';
const GOOD_KEY = `sk-testai-${randomUUID()}`;
const settingsKey = randomBytes(32);

const ROUTES: Array<[string, string, unknown?]> = [
  ['GET', '/settings/keys/status'],
  ['GET', '/settings/config'],
  ['POST', '/settings/keys', { stripe_agency_price_id: 'price_x' }],
  ['POST', `/settings/test/${PROVIDER}`],
];

describe('operator settings', { timeout: 120_000 }, () => {
  let stack: Stack;
  let admin: string;
  let adminId: string;
  let user: Awaited<ReturnType<Stack['newUser']>>;
  let provider: Server;
  /** Authorization headers the fake provider received (the key must reach it, and only it). */
  const seenKeys: string[] = [];
  const published: events.SettingsChanged[] = [];
  let stopListening: (() => Promise<void>) | undefined;
  const pool = (): Pool => stack.services.find((s) => s.name === 'analytics')!.context.pool;

  const status = async () => {
    const res = await stack.request<Statuses>('GET', '/settings/keys/status', { token: admin });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return Object.fromEntries(res.body.map((k) => [k.key, k.status]));
  };
  const config = async () => {
    const res = await stack.request<Config>('GET', '/settings/config', { token: admin });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };
  const save = (json: unknown) => stack.request<Saved>('POST', '/settings/keys', { token: admin, json });
  const test = (service: string) => stack.request<Tested>('POST', `/settings/test/${service}`, { token: admin });

  beforeAll(async () => {
    // An OpenAI-compatible model list that knows one key.
    provider = createServer((req, res) => {
      seenKeys.push(String(req.headers.authorization));
      res.setHeader('content-type', 'application/json');
      if (req.url !== '/v1/models') {
        res.statusCode = 404;
        res.end(JSON.stringify({ error: { message: 'no such path' } }));
      } else if (req.headers.authorization !== `Bearer ${GOOD_KEY}`) {
        res.statusCode = 401;
        res.end(JSON.stringify({ error: { message: 'Incorrect API key provided' } }));
      } else res.end(JSON.stringify({ object: 'list', data: [{ id: 'image-1' }, { id: 'image-2' }] }));
    });
    await new Promise<void>((ok) => provider.listen(0, '127.0.0.1', ok));
    const providerUrl = `http://127.0.0.1:${(provider.address() as { port: number }).port}/v1`;
    stack = await startStack('settings-api', undefined, {
      // Billing's catalogue says which plans' price ids are offered, and it answers /api/stripe/config.
      billing: {},
      analytics: {
        consumerGroup: `analytics-settings-test-${randomUUID().slice(0, 8)}`,
        settings: {
          SETTINGS_ENCRYPTION_KEY: settingsKey.toString('hex'),
          GENERATIVE_PROVIDER: PROVIDER,
          GENERATIVE_API_URL: providerUrl,
          STRIPE_SECRET_KEY: 'sk_test_settings',
          STRIPE_API_URL: requireEnv('STRIPE_MOCK_URL'),
        },
      },
    });
    const login = await stack.request<TokenBody>('POST', '/admin/login', {
      form: { username: stack.admin.email, password: stack.admin.password },
    });
    admin = login.body.access_token;
    adminId = (await stack.request<UserBody>('GET', '/auth/me', { token: admin })).body.id;
    user = await stack.newUser('settings');
    const sub = await stack.bus.subscribe({
      groupId: `settings-test-${randomUUID()}`,
      topics: [topics.analyticsSettings],
      handle: async (d) => {
        const e = decodeEnvelope(d.value);
        if (e.type !== eventTypes.SettingsChanged) return;
        const changed = events.SettingsChanged.decode(e.payload);
        if (changed.changedBy === adminId) published.push(changed);
      },
    });
    stopListening = () => sub.close();
  }, 180_000);
  afterAll(async () => {
    await stopListening?.();
    await stack?.stop();
    await new Promise((ok) => provider?.close(ok));
  });

  it('refuses every settings operation without a token (401) and with a user token (403)', async () => {
    for (const [method, path, json] of ROUTES) {
      assert.equal((await stack.request(method, path, { json })).status, 401, `${method} ${path}`);
      const asUser = await stack.request(method, path, { json, token: user.token });
      assert.equal(asUser.status, 403, `${method} ${path}`);
      assert.equal(asUser.body.message, 'Admin authentication required');
    }
    assert.equal((await status())[`${PROVIDER}_api_key`], 'inactive', 'a user changed nothing');
  });

  it('lists every key, all inactive before anything is saved', async () => {
    assert.deepEqual(await status(), {
      [`${PROVIDER}_api_key`]: 'inactive',
      stripe_public_key: 'inactive',
      stripe_lite_price_id: 'inactive',
      stripe_studio_price_id: 'inactive',
    });
    const c = await config();
    assert.equal(c.generative_provider, PROVIDER);
    assert.equal(c.stripe_secret_key_configured, true);
    assert.equal(c.encryption_configured, true);
    assert.deepEqual(c.testable_services, [PROVIDER, 'stripe']);
    assert.equal(c.keys[`${PROVIDER}_api_key`], '');
    assert.ok(!JSON.stringify(c).includes('sk_test_settings'), 'the server secret is never shown');
    // The catalogue sells lite and studio only: the pro and agency price ids are not offered.
    assert.deepEqual(Object.keys(c.keys).sort(), [
      'stripe_lite_price_id',
      'stripe_public_key',
      'stripe_studio_price_id',
      `${PROVIDER}_api_key`,
    ]);
  });

  it('refuses the price id of a plan that is not sold (404), and saves nothing of the request', async () => {
    const res = await save({ stripe_agency_price_id: 'price_agency_x', stripe_lite_price_id: 'price_lite_x' });
    assert.equal(res.status, 404, JSON.stringify(res.body));
    assert.match((res.body as unknown as { message: string }).message, /stripe_agency_price_id.*no such plan/);
    assert.equal((await status()).stripe_lite_price_id, 'inactive');
  });

  it('saves a secret encrypted, shows it masked to its last 4 characters, audits and publishes the change', async () => {
    const saved = await save({
      [`${PROVIDER}_api_key`]: GOOD_KEY,
      stripe_public_key: 'pk_test_settings123',
      stripe_studio_price_id: 'price_studio_settings',
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.deepEqual(saved.body.changed.sort(), ['stripe_public_key', 'stripe_studio_price_id', `${PROVIDER}_api_key`]);
    const c = await config();
    assert.equal(c.keys[`${PROVIDER}_api_key`], `****${GOOD_KEY.slice(-4)}`);
    assert.equal(c.keys.stripe_public_key, 'pk_test_settings123', 'the publishable key is public');
    assert.equal(c.keys.stripe_studio_price_id, 'price_studio_settings');
    assert.ok(!JSON.stringify(c).includes(GOOD_KEY));
    assert.equal((await status())[`${PROVIDER}_api_key`], 'unknown', 'set, not tested yet');

    // At rest: AES-256-GCM under the settings key, nothing in clear.
    const { rows } = await pool().query<{ value: string | null; sealed: Buffer }>(
      'SELECT value, sealed FROM operator_settings WHERE key = $1',
      [`${PROVIDER}_api_key`],
    );
    assert.equal(rows[0]!.value, null);
    assert.ok(!rows[0]!.sealed.includes(Buffer.from(GOOD_KEY)));
    assert.equal(openSetting(settingsKey, `${PROVIDER}_api_key`, rows[0]!.sealed), GOOD_KEY);
    const dump = await pool().query<{ t: string }>("SELECT string_agg(t::text, ' ') AS t FROM operator_settings t");
    assert.ok(!dump.rows[0]!.t.includes(GOOD_KEY));

    // Audited: who, when, which key; never the value.
    const audit = await pool().query('SELECT * FROM operator_settings_audit WHERE operator_id = $1', [adminId]);
    assert.deepEqual(audit.rows.map((r) => `${r.key} ${r.action}`).sort(), [
      'stripe_public_key set',
      'stripe_studio_price_id set',
      `${PROVIDER}_api_key set`,
    ]);
    assert.ok(audit.rows.every((r) => r.occurred_at instanceof Date));
    assert.ok(!JSON.stringify(audit.rows).includes(GOOD_KEY));

    // On the bus: SettingsChanged with the secret sealed, never in clear.
    await waitFor(() => published.length > 0, 'SettingsChanged on analytics.settings.v1', 60_000);
    const bySetting = new Map(published[0]!.settings.map((s) => [s.key, s]));
    const secret = bySetting.get(`${PROVIDER}_api_key`)!;
    assert.equal(secret.secret, true);
    assert.equal(secret.value, '');
    assert.equal(secret.masked, `****${GOOD_KEY.slice(-4)}`);
    assert.ok(!Buffer.from(secret.encryptedValue).includes(Buffer.from(GOOD_KEY)));
    assert.equal(openSetting(settingsKey, secret.key, secret.encryptedValue), GOOD_KEY);
    assert.equal(bySetting.get('stripe_studio_price_id')!.value, 'price_studio_settings');

    // The saved publishable key is what GET /api/stripe/config answers (billing takes it from the bus).
    await waitFor(
      async () =>
        (await stack.request<{ publishableKey: string }>('GET', '/stripe/config')).body.publishableKey ===
        'pk_test_settings123',
      '/api/stripe/config answers the saved key',
      60_000,
    );
  });

  it('keeps a value sent back in its masked form, and clears one sent empty', async () => {
    const masked = (await config()).keys[`${PROVIDER}_api_key`]!;
    const kept = await save({ [`${PROVIDER}_api_key`]: masked, stripe_public_key: 'pk_test_settings123' });
    assert.equal(kept.status, 200, JSON.stringify(kept.body));
    assert.deepEqual(kept.body.changed, []);
    assert.equal(kept.body.message, 'Nothing changed');
    const { rows } = await pool().query('SELECT sealed FROM operator_settings WHERE key = $1', [`${PROVIDER}_api_key`]);
    assert.equal(openSetting(settingsKey, `${PROVIDER}_api_key`, rows[0].sealed), GOOD_KEY);

    const cleared = await save({ stripe_lite_price_id: 'price_lite_settings' });
    assert.deepEqual(cleared.body.changed, ['stripe_lite_price_id']);
    assert.equal((await save({ stripe_lite_price_id: '' })).body.changed[0], 'stripe_lite_price_id');
    assert.equal((await status()).stripe_lite_price_id, 'inactive');
    const actions = await pool().query(
      "SELECT action FROM operator_settings_audit WHERE key = 'stripe_lite_price_id' ORDER BY id",
    );
    assert.deepEqual(
      actions.rows.map((r) => r.action),
      ['set', 'cleared'],
    );
  });

  it('refuses bad input with a clear message (400), an unknown setting (404), a stale masked key (409)', async () => {
    const cases: Array<[unknown, number, RegExp]> = [
      [{ openai_key: 'x' }, 404, /Unknown setting openai_key/],
      [{ [`${PROVIDER}_api_key`]: '****zzzz' }, 409, /masked value that does not match/],
      [{ stripe_public_key: 'sk_live_oops' }, 400, /must start with pk_test_ or pk_live_/],
      [{ stripe_lite_price_id: 'price with spaces' }, 400, /may hold only/],
      [{ stripe_lite_price_id: 42 }, 400, /must be a string/],
      [{ [`${PROVIDER}_api_key`]: 'two words' }, 400, /must not contain spaces/],
      [['stripe_lite_price_id'], 400, /./],
    ];
    for (const [json, status, message] of cases) {
      const res = await save(json);
      assert.equal(res.status, status, JSON.stringify(json));
      assert.match((res.body as unknown as { message: string }).message, message);
    }
    const bare = await stack.request('POST', '/settings/keys', { token: admin });
    assert.equal(bare.status, 400);
    assert.match(bare.body.message, /Send the settings as a JSON object/);
    const nothing = await save({});
    assert.equal(nothing.status, 200);
    assert.equal(nothing.body.message, 'Nothing changed');
    assert.equal((await status()).stripe_lite_price_id, 'inactive');
  });

  it('tests the generative provider with the saved key: active, then invalid with the reason after a wrong key', async () => {
    const ok = await test(PROVIDER);
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.deepEqual(ok.body, { success: true, message: `Connected to ${PROVIDER}: 2 models available` });
    assert.equal(seenKeys.at(-1), `Bearer ${GOOD_KEY}`);
    assert.equal((await status())[`${PROVIDER}_api_key`], 'active');

    await save({ [`${PROVIDER}_api_key`]: 'sk-wrong-key-0000' });
    assert.equal((await status())[`${PROVIDER}_api_key`], 'unknown', 'changed since the test');
    const bad = await test(PROVIDER);
    assert.equal(bad.status, 200);
    assert.equal(bad.body.success, false);
    assert.match(
      bad.body.message,
      /^Connection failed: testai refused the key: HTTP 401 \(Incorrect API key provided\)/,
    );
    assert.equal((await status())[`${PROVIDER}_api_key`], 'invalid');
    const tested = await pool().query(
      "SELECT count(*)::int AS n FROM operator_settings_audit WHERE action = 'tested' AND operator_id = $1",
      [adminId],
    );
    assert.ok(tested.rows[0].n >= 2, 'tests are audited too');
  });

  it('tests Stripe (the balance and each price id, on stripe-mock) and marks its keys active', async () => {
    const res = await test('stripe');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body, { success: true, message: 'Connected to Stripe: balance read, 1 price id found' });
    const s = await status();
    assert.equal(s.stripe_public_key, 'active');
    assert.equal(s.stripe_studio_price_id, 'active');
    assert.equal(s.stripe_lite_price_id, 'inactive', 'not set');
  });

  it('answers 404 for a service it does not know', async () => {
    const res = await test('nosuch');
    assert.equal(res.status, 404);
    assert.match((res.body as unknown as { message: string }).message, /Unknown service nosuch/);
  });
});
