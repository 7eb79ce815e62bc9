import { readStored, storageKeys, writeStored } from './storage';

export type MainType = 'clothing' | 'accessory' | 'shoes' | 'details';

export const subTypesOf = {
  clothing: ['tops', 'bottoms', 'socks'],
  accessory: ['jewelry', 'bags_belts', 'accessory_headwear'],
  shoes: ['two_shoe', 'side_view', 'front_view'],
  details: ['logo_detail', 'fabric_texture', 'hardware_tag'],
} as const satisfies Record<MainType, readonly string[]>;

export type SubType = (typeof subTypesOf)[MainType][number];

export interface EnhancementType {
  type: MainType;
  subType: SubType;
}

export const mainTypes: { type: MainType; label: string; hint: string }[] = [
  { type: 'clothing', label: 'Clothing', hint: 'Tops, bottoms, socks' },
  { type: 'accessory', label: 'Accessories', hint: 'Jewelry, bags, belts, headwear' },
  { type: 'shoes', label: 'Shoes', hint: 'A pair, side or front view' },
  { type: 'details', label: 'Details', hint: 'Logos, fabric, hardware and tags' },
];

export const defaultEnhancementType: EnhancementType = { type: 'clothing', subType: 'tops' };

/** Switching the main type starts from the first sub-type of its group. */
export function withMainType(type: MainType): EnhancementType {
  return { type, subType: subTypesOf[type][0] };
}

export function isEnhancementType(value: unknown): value is EnhancementType {
  if (!value || typeof value !== 'object') return false;
  const { type, subType } = value as Record<string, unknown>;
  return (
    typeof type === 'string' &&
    type in subTypesOf &&
    (subTypesOf[type as MainType] as readonly unknown[]).includes(subType)
  );
}

export function loadEnhancementType(): EnhancementType {
  try {
    const parsed: unknown = JSON.parse(readStored(storageKeys.enhancementType) ?? 'null');
    return isEnhancementType(parsed) ? parsed : defaultEnhancementType;
  } catch {
    return defaultEnhancementType;
  }
}

export function saveEnhancementType(value: EnhancementType): void {
  writeStored(storageKeys.enhancementType, JSON.stringify(value));
}

/** The hero's chooser sends the group's first sub-type (tops, jewelry, two_shoe, logo_detail). */
export function heroEnhancementField(value: EnhancementType): SubType {
  return subTypesOf[value.type][0];
}

/** The dashboard sends the chosen sub-type for active subscribers (who may choose one), else the main type. */
export function dashboardEnhancementField(value: EnhancementType, subscriber: boolean): string {
  return subscriber ? value.subType : value.type;
}
