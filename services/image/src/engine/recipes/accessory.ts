import type { Recipe } from './recipe.js';

const base = { type: 'accessory', mode: 'cutout', removeHanger: false, pairSideBySide: false, sharpen: 0.8 } as const;

export const accessoryRecipes: Record<'jewelry' | 'bags_belts' | 'accessory_headwear', Recipe> = {
  // small shiny items: more margin, stronger detail
  jewelry: {
    ...base,
    subType: 'jewelry',
    aspect: 1,
    margin: 0.15,
    level: 'principal',
    centreOnSymmetry: true,
    sharpen: 1,
  },
  bags_belts: { ...base, subType: 'bags_belts', aspect: 1, margin: 0.08, level: 'symmetry', centreOnSymmetry: true },
  accessory_headwear: {
    ...base,
    subType: 'accessory_headwear',
    aspect: 1,
    margin: 0.1,
    level: 'symmetry',
    centreOnSymmetry: true,
  },
};
