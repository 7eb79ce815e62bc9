export function goEnv(): NodeJS.ProcessEnv;
export const GO_BUILD_FLAGS: readonly string[];
export function warmGoStd(): Promise<void>;
