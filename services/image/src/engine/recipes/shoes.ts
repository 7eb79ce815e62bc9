import type { Recipe } from './recipe.js';

const base = { type: 'shoes', mode: 'cutout', removeHanger: false, sharpen: 0.8 } as const;

export const shoeRecipes: Record<'two_shoe' | 'side_view' | 'front_view', Recipe> = {
  // both shoes kept and set side by side on one baseline
  two_shoe: {
    ...base,
    subType: 'two_shoe',
    aspect: 4 / 3,
    margin: 0.08,
    level: 'principal',
    pairSideBySide: true,
    centreOnSymmetry: false,
  },
  // a profile is not mirror-symmetric: level by the sole's long axis, centre the bounding box
  side_view: {
    ...base,
    subType: 'side_view',
    aspect: 4 / 3,
    margin: 0.08,
    level: 'principal',
    pairSideBySide: false,
    centreOnSymmetry: false,
  },
  front_view: {
    ...base,
    subType: 'front_view',
    aspect: 1,
    margin: 0.1,
    level: 'symmetry',
    pairSideBySide: false,
    centreOnSymmetry: true,
  },
};
