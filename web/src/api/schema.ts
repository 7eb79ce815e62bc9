// The types of the /api document, generated from the gateway's route declarations by
// `npm run api:gen` (openapi-typescript) into gateway/src/api/openapi-types.ts. They are imported
// in place (web/tsconfig.json includes that one file), never copied: renaming a field in a
// gateway declaration and regenerating breaks the web app's type check.
import type { components, operations, paths } from '../../../gateway/src/api/openapi-types';

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

/** The body of a POST's JSON answer with the given status, by path (the typed client's and uploads' answers). */
export type PostAnswer<P extends keyof paths, Status extends number = 200> = paths[P]['post'] extends {
  responses: infer R;
}
  ? R extends Record<Status, { content: { 'application/json': infer Body } }>
    ? Body
    : never
  : never;

// The shapes the screens read, named once: each is the document's own (no copies to drift).
export type UserProfile = Schema<'User'>;
export type Session = Schema<'Session'>;
export type ImageRecord = Schema<'Image'>;
export type ImagePage = JsonAnswer<'getImages', 200>;
export type Products = Schema<'Products'>;
export type SubscriptionProduct = Products['subscriptions'][number];
export type TokenPack = Products['token_packs'][number];
export type AnonymousEnhancement = Schema<'AnonymousEnhancement'>;
export type SubscriptionStatus = Schema<'SubscriptionStatus'>;
