export {
  chooseProvider,
  DEFAULT_PROMPT,
  type PlanOfUser,
  type ProviderChoice,
  withInstruction,
} from './choose-provider.js';
export { GenerativeProvider, type JobResult, type ProducedResult } from './generative-provider.js';
export { editImage, ImageEditError, type ImageEditRequest } from './openai-image-edit.js';
export {
  apiKeySetting,
  OperatorGenerativeSettings,
  settingsKeyFrom,
  type OperatorSettingsDeps,
} from './operator-settings-source.js';
export {
  chooseGenerativeSettings,
  envGenerativeSettings,
  generativeEnvFrom,
  generativeEnvSchema,
  generativeSettingsFromEnv,
  type GenerativeEnv,
  type GenerativeEnvName,
  type GenerativeSettings,
  type GenerativeSettingsSource,
} from './settings-source.js';
