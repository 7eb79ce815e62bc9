/**
 * What a compact JWT looks like: three base64url parts joined by dots. A token that does not is
 * refused before any network call (fetching a provider's certificates for it would only turn a
 * malformed request into an outage answer when the provider is unreachable).
 */
export const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
export const GOOGLE_TOKEN_MALFORMED = 'idToken is not a Google ID token (a JWT)';
