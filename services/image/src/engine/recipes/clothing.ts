import type { Recipe } from './recipe.js';

const garment = {
  type: 'clothing',
  mode: 'cutout',
  level: 'symmetry',
  centreOnSymmetry: true,
  pairSideBySide: false,
  sharpen: 0.6,
} as const;

export const clothingRecipes: Record<'tops' | 'bottoms' | 'socks', Recipe> = {
  tops: { ...garment, subType: 'tops', aspect: 4 / 5, margin: 0.07, removeHanger: 'hooks' },
  bottoms: { ...garment, subType: 'bottoms', aspect: 4 / 5, margin: 0.06, removeHanger: 'hooks-and-clips' },
  // a pair of socks is two parts; keep both, side by side like shoes
  socks: { ...garment, subType: 'socks', aspect: 1, margin: 0.1, removeHanger: false, pairSideBySide: true },
};
