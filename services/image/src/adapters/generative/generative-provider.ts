import sharp from 'sharp';
import type { Logger } from '@flatlay/platform';
import { resolveOptions, type EnhanceOptions } from '../../engine/options.js';
import type { EnhanceResult } from '../../engine/pipeline.js';
import { deliver } from '../../engine/stages/deliver.js';
import { chooseProvider, type PlanOfUser, withInstruction } from './choose-provider.js';
import { editImage, type ImageEditRequest } from './openai-image-edit.js';
import type { GenerativeSettingsSource } from './settings-source.js';

/** What a job stores: the full result, its watermarked preview, and what the image row records. */
export type JobResult = Pick<EnhanceResult, 'full' | 'thumbnail' | 'preview' | 'width' | 'height' | 'format'>;

export interface ProducedResult {
  result: JobResult;
  /** Which engine made it: the provider, or the local engine (chosen, or after the provider failed). */
  by: 'generative' | 'local';
}

/** Long side of the photo sent to the provider: these APIs work at about 1 MP and bill by size. */
const SENT_LONG_SIDE = 1536;

/**
 * The generative provider (ADR 0103): for jobs of plans it is on for, the photo goes to an
 * OpenAI-compatible image edit API with the sub-type's prompt; its answer becomes the result and
 * the same watermarked preview the local engine makes. Any failure (settings, network, timeout,
 * an error answer, an image that cannot be decoded) falls back to the local engine: the user still
 * gets a result, and the job's attempts are the local engine's.
 */
export class GenerativeProvider {
  constructor(
    private readonly o: {
      settings: GenerativeSettingsSource;
      logger: Logger;
      edit?: (req: ImageEditRequest) => Promise<Buffer>;
    },
  ) {}

  async produce(
    input: Buffer,
    options: EnhanceOptions,
    plan: PlanOfUser | undefined,
    local: () => Promise<JobResult>,
    job: { imageId: string; instruction?: string | null },
  ): Promise<ProducedResult> {
    // The instruction is the customer's words: never in the logs.
    const context = { imageId: job.imageId };
    let settings: Awaited<ReturnType<GenerativeSettingsSource['current']>>;
    try {
      settings = await this.o.settings.current();
    } catch (err) {
      this.o.logger.warn({ err, ...context }, 'generative settings unreadable; using the local engine');
      return { result: await local(), by: 'local' };
    }
    const choice = chooseProvider(settings, plan, options.type ?? 'clothing');
    if (choice.provider === 'local' || !settings) return { result: await local(), by: 'local' };
    try {
      const photo = await sharp(input)
        .rotate()
        .resize(SENT_LONG_SIDE, SENT_LONG_SIDE, { fit: 'inside', withoutEnlargement: true })
        .jpeg({ quality: 92 })
        .toBuffer();
      const edited = await (this.o.edit ?? editImage)({
        baseUrl: settings.baseUrl,
        apiKey: settings.apiKey,
        model: settings.model,
        prompt: withInstruction(choice.prompt, job.instruction),
        image: photo,
        imageType: 'image/jpeg',
        timeoutMs: settings.timeoutMs,
      });
      return { result: await this.asResult(edited, options), by: 'generative' };
    } catch (err) {
      // Never the key: the error is ours or the provider's message.
      const message = err instanceof Error ? err.message : String(err);
      this.o.logger.warn(
        { ...context, reason: message },
        'generative provider failed; falling back to the local engine',
      );
      return { result: await local(), by: 'local' };
    }
  }

  /** The provider's image in the job's format and size, with the local engine's deliverables. */
  private async asResult(edited: Buffer, options: EnhanceOptions): Promise<JobResult> {
    const resolved = resolveOptions(options);
    let image = sharp(edited).rotate();
    if (resolved.size) image = image.resize(resolved.size, resolved.size, { fit: 'inside' });
    image = resolved.transparent ? image.ensureAlpha() : image.flatten({ background: '#ffffff' }).removeAlpha();
    const { data, info } = await image.raw().toBuffer({ resolveWithObject: true });
    const raw = { data, width: info.width, height: info.height, channels: info.channels as 3 | 4 };
    const delivered = await deliver(raw, resolved.format, resolved.transparent);
    return { ...delivered, width: info.width, height: info.height, format: resolved.format };
  }
}
