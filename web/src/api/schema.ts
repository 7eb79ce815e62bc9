// The types of the /api document, generated from the gateway's route declarations by
// `npm run api:gen` (openapi-typescript) into gateway/src/api/openapi-types.ts. They are imported
// in place (web/tsconfig.json includes that one file), never copied: renaming a field in a
// gateway declaration and regenerating breaks the web app's type check.
import type { components, operations } from '../../../gateway/src/api/openapi-types';

export type { components, operations, paths } from '../../../gateway/src/api/openapi-types';

/** The JSON body of an operation's answer with the given status. */
export type JsonAnswer<
  Op extends keyof operations,
  Status extends keyof operations[Op]['responses'],
> = operations[Op]['responses'][Status] extends {
  content: { 'application/json': infer Body };
}
  ? Body
  : never;

export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];
