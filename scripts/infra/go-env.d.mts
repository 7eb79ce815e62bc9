export function goEnv(): NodeJS.ProcessEnv;
export const GO_STRIP: string;
export const GO_BUILD_FLAGS: readonly string[];
export const GO_COMPILE_FLAGS: readonly string[];
export function goIn(cwd: string, args: string[]): Promise<string>;
export function warmGoStd(): Promise<void>;
