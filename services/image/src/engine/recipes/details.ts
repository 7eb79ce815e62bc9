import type { Recipe } from './recipe.js';

const base = {
  type: 'details',
  mode: 'crop',
  removeHanger: false,
  pairSideBySide: false,
  centreOnSymmetry: false,
  level: 'none',
} as const;

/** Close-ups are cropped around the subject and sharpened; the surroundings stay (nothing cut out). */
export const detailRecipes: Record<'logo_detail' | 'fabric_texture' | 'hardware_tag', Recipe> = {
  logo_detail: { ...base, subType: 'logo_detail', aspect: 1, margin: 0.06, sharpen: 1.2 },
  fabric_texture: { ...base, subType: 'fabric_texture', aspect: 1, margin: 0, sharpen: 1.2 },
  hardware_tag: { ...base, subType: 'hardware_tag', aspect: 1, margin: 0.06, sharpen: 1.2 },
};
