export { chooseProvider, DEFAULT_PROMPT, type PlanOfUser, type ProviderChoice } from './choose-provider.js';
export { GenerativeProvider, type JobResult, type ProducedResult } from './generative-provider.js';
export { editImage, ImageEditError, type ImageEditRequest } from './openai-image-edit.js';
export {
  envGenerativeSettings,
  generativeEnvSchema,
  generativeSettingsFromEnv,
  type GenerativeSettings,
  type GenerativeSettingsSource,
} from './settings-source.js';
