export function withLock<T>(dir: string, what: string, fn: () => Promise<T>): Promise<T>;
export function cached(dir: string, recipe: string, what: string, make: (out: string) => Promise<unknown>): Promise<string>;
