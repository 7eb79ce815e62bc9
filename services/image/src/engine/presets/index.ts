import { EngineError } from '../errors.js';
import { PRESET_IDS, type CheckInput, type CheckResult, type Preset, type PresetId } from './preset.js';
import * as r from './rules.js';

export { PRESET_IDS, type CheckInput, type CheckResult, type Preset, type PresetId } from './preset.js';

function preset(
  id: PresetId,
  label: string,
  layout: { aspect: number; margin: number; size: number },
  rules: ((i: CheckInput) => CheckResult)[],
): Preset {
  return { id, label, ...layout, check: (i) => rules.map((rule) => rule(i)) };
}

/** Marketplace rules as published for main product images (checked on the delivered file). */
export const PRESETS: Record<PresetId, Preset> = {
  amazon: preset('amazon', 'Amazon main image', { aspect: 1, margin: 0.05, size: 2048 }, [
    r.pureWhiteBackground(),
    r.productFill(0.85),
    r.minLongSide(1600),
    r.opaque(),
    r.formatIn(['jpeg', 'png']),
  ]),
  shopify: preset('shopify', 'Shopify product image', { aspect: 1, margin: 0.08, size: 2048 }, [
    r.exactSize(2048, 2048),
  ]),
  zalando: preset('zalando', 'Zalando partner image', { aspect: 1 / 1.44, margin: 0.06, size: 2600 }, [
    r.aspect(1 / 1.44, '1:1.44'),
    r.minSize(1801, 2600),
  ]),
  ebay: preset('ebay', 'eBay listing photo', { aspect: 1, margin: 0.06, size: 2048 }, [
    r.minLongSide(1600),
    r.noBorder(),
  ]),
  etsy: preset('etsy', 'Etsy listing photo', { aspect: 4 / 3, margin: 0.08, size: 2700 }, [
    r.aspect(4 / 3, '4:3'),
    r.minShortSide(2000),
  ]),
  vinted: preset('vinted', 'Vinted / Depop photo', { aspect: 4 / 5, margin: 0.07, size: 2000 }, [
    r.aspect(4 / 5, '4:5'),
    r.minLongSide(1600),
  ]),
};

export function resolvePreset(id: string | undefined): Preset | undefined {
  if (id === undefined) return undefined;
  const key = id.toLowerCase() === 'depop' ? 'vinted' : id.toLowerCase();
  if (!(PRESET_IDS as readonly string[]).includes(key)) {
    throw new EngineError('INVALID_OPTIONS', `unknown preset "${id}" (${PRESET_IDS.join(', ')})`);
  }
  return PRESETS[key as PresetId];
}
