import { EngineError } from '../errors.js';
import { accessoryRecipes } from './accessory.js';
import { clothingRecipes } from './clothing.js';
import { detailRecipes } from './details.js';
import { SUB_TYPES, type EnhancementType, type Recipe, type SubType } from './recipe.js';
import { shoeRecipes } from './shoes.js';

export { SUB_TYPES, type EnhancementType, type Recipe, type SubType } from './recipe.js';

const ALL: Record<SubType, Recipe> = { ...clothingRecipes, ...accessoryRecipes, ...shoeRecipes, ...detailRecipes };

const DEFAULT_SUB_TYPE: Record<EnhancementType, SubType> = {
  clothing: 'tops',
  accessory: 'bags_belts',
  shoes: 'two_shoe',
  details: 'logo_detail',
};

function isType(v: string): v is EnhancementType {
  return Object.hasOwn(SUB_TYPES, v);
}

/** Resolve a main type and/or a sub-type ("shoes", "side_view", "shoes/side_view") to a recipe. */
export function resolveRecipe(type: string = 'clothing', subType?: string): Recipe {
  let main = type,
    sub = subType;
  if (type.includes('/')) [main, sub] = type.split('/', 2) as [string, string];
  if (!isType(main)) {
    const owner = (Object.keys(SUB_TYPES) as EnhancementType[]).find((t) =>
      (SUB_TYPES[t] as readonly string[]).includes(main),
    );
    if (!owner || (sub && sub !== main)) throw new EngineError('INVALID_OPTIONS', `unknown enhancement type "${type}"`);
    return ALL[main as SubType];
  }
  const chosen = (sub ?? DEFAULT_SUB_TYPE[main]) as SubType;
  if (!(SUB_TYPES[main] as readonly string[]).includes(chosen)) {
    throw new EngineError('INVALID_OPTIONS', `"${sub}" is not a sub-type of ${main} (${SUB_TYPES[main].join(', ')})`);
  }
  return ALL[chosen];
}
