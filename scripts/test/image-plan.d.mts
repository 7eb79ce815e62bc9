// Types of image-plan.mjs for the TypeScript tests (tsconfig.tests.json does not read JavaScript).
export declare const TIERS_BEFORE_CONTAINER: readonly string[];
export declare function imageBeforeTests(run: { tiers: readonly string[]; cold: boolean }): boolean;
