// Types of cpu-slowdown.mjs for the TypeScript tests (tsconfig.tests.json does not read JavaScript).
export declare const SLOWEST_CALIBRATED_INDEX: number;
export declare function slowdownFor(index: number): number | undefined;
