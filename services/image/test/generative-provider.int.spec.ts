// The generative provider against a local HTTP fake of an OpenAI-compatible image edit API:
// who goes to it, what it is sent, how its answer becomes a result and a watermarked preview,
// and that every kind of failure falls back to the local engine.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, it } from 'vitest';
import { createLogger } from '@flatlay/platform';
import {
  DEFAULT_PROMPT,
  envGenerativeSettings,
  GenerativeProvider,
  generativeSettingsFromEnv,
  type JobResult,
} from '../src/adapters/generative/index.js';
import { type FakeImageEditApi, startFakeImageEditApi } from './support/fake-image-edit-api.js';

const silent = createLogger('generative-test', 'silent');
const photo = await readFile(new URL('./fixtures/top_floor_01.jpg', import.meta.url));
const KEY = 'sk-test-generative-key';

/** The local engine's part in these tests: a small green result, told apart from the provider's red. */
let localRuns = 0;
const local = async (): Promise<JobResult> => {
  localRuns++;
  const full = await sharp({ create: { width: 60, height: 40, channels: 3, background: '#00ff00' } })
    .jpeg()
    .toBuffer();
  return { full, thumbnail: full, preview: full, width: 60, height: 40, format: 'jpeg' };
};

describe('the generative provider (OpenAI-compatible image edits)', { timeout: 60_000 }, () => {
  let fake: FakeImageEditApi;
  let provider: GenerativeProvider;
  const pro = { plan: 'pro', status: 'active' };
  beforeAll(async () => {
    fake = await startFakeImageEditApi();
    provider = new GenerativeProvider({
      settings: envGenerativeSettings({
        GENERATIVE_API_URL: fake.baseUrl,
        GENERATIVE_API_KEY: KEY,
        GENERATIVE_MODEL: 'gpt-image-1',
        GENERATIVE_PLANS: 'pro, studio',
        GENERATIVE_PROMPTS: JSON.stringify({ tops: 'a top, laid flat', shoes: 'a pair of shoes, side by side' }),
        GENERATIVE_TIMEOUT_MS: '1500',
      }),
      logger: silent,
    });
  });
  afterAll(() => fake?.close());
  beforeEach(() => {
    fake.mode = 'b64';
    fake.seen.length = 0;
    localRuns = 0;
  });

  it("sends a plan's job to the API and turns its answer into the result and a watermarked preview", async () => {
    const { result, by } = await provider.produce(photo, { type: 'tops' }, pro, local, { imageId: 'i' });
    assert.equal(by, 'generative');
    assert.equal(localRuns, 0);
    assert.equal(fake.seen.length, 1);
    const sent = fake.seen[0]!;
    assert.equal(sent.authorization, `Bearer ${KEY}`);
    assert.deepEqual([sent.model, sent.prompt, sent.n], ['gpt-image-1', 'a top, laid flat', '1']);
    assert.equal(sent.imageType, 'image/jpeg');
    assert.equal((await sharp(sent.image).metadata()).format, 'jpeg');

    assert.deepEqual([result.width, result.height, result.format], [1024, 768, 'jpeg']);
    const full = await sharp(result.full).raw().toBuffer({ resolveWithObject: true });
    assert.equal(full.info.format, 'raw');
    assert.ok(full.data[0]! > 240 && full.data[1]! < 20, "the provider's red image");
    const preview = await sharp(result.preview).metadata();
    assert.equal(preview.format, 'jpeg');
    assert.ok(Math.max(preview.width!, preview.height!) <= 512, 'the preview is small');
    assert.notDeepEqual(result.preview, result.full);
  });

  it('takes the main type’s prompt for a sub-type without one, else the default; honours size and PNG', async () => {
    await provider.produce(photo, { type: 'side_view' }, pro, local, { imageId: 'i' });
    await provider.produce(photo, { type: 'jewelry' }, pro, local, { imageId: 'i' });
    assert.deepEqual(
      fake.seen.map((s) => s.prompt),
      ['a pair of shoes, side by side', DEFAULT_PROMPT],
    );
    const { result } = await provider.produce(photo, { type: 'tops', size: 512, format: 'png' }, pro, local, {
      imageId: 'i',
    });
    assert.deepEqual([result.width, result.height, result.format], [512, 384, 'png']);
    assert.equal((await sharp(result.full).metadata()).format, 'png');
  });

  it('answers with a URL: the image is fetched', async () => {
    fake.mode = 'url';
    const { result, by } = await provider.produce(photo, { type: 'tops' }, pro, local, { imageId: 'i' });
    assert.equal(by, 'generative');
    assert.equal(result.width, 1024);
  });

  it('keeps guests, plans it is not on for and inactive subscriptions on the local engine', async () => {
    for (const plan of [undefined, { plan: 'lite', status: 'active' }, { plan: 'pro', status: 'past_due' }]) {
      const { by } = await provider.produce(photo, { type: 'tops' }, plan, local, { imageId: 'i' });
      assert.equal(by, 'local');
    }
    assert.equal(fake.seen.length, 0, 'the API is never called');
    assert.equal(localRuns, 3);
  });

  for (const mode of ['error', 'not-json', 'not-an-image', 'hang'] as const)
    it(`falls back to the local engine when the API ${mode === 'hang' ? 'never answers' : `answers ${mode}`}`, async () => {
      fake.mode = mode;
      const { result, by } = await provider.produce(photo, { type: 'tops' }, pro, local, { imageId: 'i' });
      assert.equal(fake.seen.length, 1, 'the API was tried');
      assert.equal(by, 'local');
      assert.equal(localRuns, 1);
      assert.equal(result.width, 60);
    });

  it('falls back when the API cannot be reached, and when the settings cannot be read', async () => {
    const unreachable = new GenerativeProvider({
      settings: envGenerativeSettings({
        GENERATIVE_API_URL: 'http://127.0.0.1:9/v1',
        GENERATIVE_API_KEY: KEY,
        GENERATIVE_PLANS: 'pro',
      }),
      logger: silent,
    });
    assert.equal((await unreachable.produce(photo, { type: 'tops' }, pro, local, { imageId: 'i' })).by, 'local');
    const broken = new GenerativeProvider({
      settings: {
        current: async () => {
          throw new Error('settings store down');
        },
      },
      logger: silent,
    });
    assert.equal((await broken.produce(photo, { type: 'tops' }, pro, local, { imageId: 'i' })).by, 'local');
    assert.equal(localRuns, 2);
  });

  it('is off without a key or without plans, and refuses malformed prompts', () => {
    assert.equal(generativeSettingsFromEnv({ GENERATIVE_PLANS: 'pro' }), undefined);
    assert.equal(generativeSettingsFromEnv({ GENERATIVE_API_KEY: KEY }), undefined);
    assert.deepEqual(generativeSettingsFromEnv({ GENERATIVE_API_KEY: KEY, GENERATIVE_PLANS: 'Pro,agency' }), {
      baseUrl: 'https://api.openai.com/v1',
      apiKey: KEY,
      model: 'gpt-image-1',
      plans: ['pro', 'agency'],
      prompts: {},
      timeoutMs: 60_000,
    });
    assert.throws(
      () => generativeSettingsFromEnv({ GENERATIVE_API_KEY: KEY, GENERATIVE_PLANS: 'pro', GENERATIVE_PROMPTS: '[1]' }),
      /GENERATIVE_PROMPTS: must be a JSON object/,
    );
  });
});
