import { jwtVerify, type JWTPayload } from 'jose';
import { OAuth2Client, type TokenPayload } from 'google-auth-library';
import { AppError, GOOGLE_TOKEN_MALFORMED, JWT_SHAPE } from '@flatlay/platform';
import type { ExternalClaims } from '../domain/index.js';

export interface ExternalProfile extends ExternalClaims {
  firstName: string;
  lastName: string;
  fullName: string;
  avatarUrl: string;
}

/** Checks an external provider's token and returns who it names. */
export interface ExternalVerifier {
  verify(token: string): Promise<ExternalProfile>;
}

// Not an outage: nothing will change until an operator configures it, and web clients end the
// session on any 503/504, so this is NOT_CONFIGURED (501).
const notConfigured = (what: string) =>
  new AppError(
    'NOT_CONFIGURED',
    `${what} sign-in is not configured on this server. Please sign in with your email and password.`,
  );
const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** Google ID tokens, checked by google-auth-library against GOOGLE_CLIENT_ID (certificates from GOOGLE_CERTS_URL when set). */
export class GoogleVerifier implements ExternalVerifier {
  private readonly client: OAuth2Client | undefined;

  constructor(
    private readonly clientId: string | undefined,
    certsUrl?: string,
  ) {
    this.client = clientId
      ? new OAuth2Client({
          clientId,
          ...(certsUrl ? { endpoints: { oauth2FederatedSignonPemCertsUrl: certsUrl } } : {}),
        })
      : undefined;
  }

  async verify(idToken: string): Promise<ExternalProfile> {
    if (!this.client || !this.clientId) throw notConfigured('Google');
    if (!idToken) throw new AppError('INVALID_ARGUMENT', 'idToken is required');
    // Before the certificates are fetched: a malformed token is the caller's mistake, not an outage.
    if (!JWT_SHAPE.test(idToken)) throw new AppError('INVALID_ARGUMENT', GOOGLE_TOKEN_MALFORMED);
    let payload: TokenPayload | undefined;
    try {
      payload = (await this.client.verifyIdToken({ idToken, audience: this.clientId })).getPayload();
    } catch (error) {
      if (/certificates|fetch|ECONN|ENOTFOUND|socket/i.test(String((error as Error)?.message)))
        throw new AppError('UNAVAILABLE', 'Google accounts API unavailable');
      throw new AppError('UNAUTHENTICATED', 'Could not verify Google account');
    }
    if (!payload?.sub) throw new AppError('UNAUTHENTICATED', 'Could not verify Google account');
    return {
      provider: 'google',
      subject: payload.sub,
      email: str(payload.email),
      emailVerified: payload.email_verified === true,
      firstName: str(payload.given_name),
      lastName: str(payload.family_name),
      fullName: str(payload.name),
      avatarUrl: str(payload.picture),
    };
  }
}

/** Supabase access tokens: HS256 JWTs signed with the project's JWT secret, audience 'authenticated'. */
export class SupabaseVerifier implements ExternalVerifier {
  private readonly secret: Uint8Array | undefined;

  constructor(secret: string | undefined) {
    this.secret = secret ? new TextEncoder().encode(secret) : undefined;
  }

  async verify(accessToken: string): Promise<ExternalProfile> {
    if (!this.secret) throw notConfigured('Supabase');
    if (!accessToken) throw new AppError('UNAUTHENTICATED', 'Not authenticated: a Supabase access token is required');
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(accessToken, this.secret, {
        algorithms: ['HS256'],
        audience: 'authenticated',
        requiredClaims: ['sub', 'exp'],
      }));
    } catch {
      throw new AppError('UNAUTHENTICATED', 'Not authenticated: the Supabase token is invalid or expired');
    }
    const meta = (payload.user_metadata ?? {}) as Record<string, unknown>;
    return {
      provider: 'supabase',
      subject: str(payload.sub),
      email: str(payload.email),
      // Never trusted, whatever the token says: `user_metadata.email_verified` is the signed-in
      // user's to edit (supabase.auth.updateUser), and a project may let people in before they
      // confirm their address. The decider treats a Supabase sign-in as proving no address.
      emailVerified: false,
      firstName: '',
      lastName: '',
      fullName: str(meta.full_name) || str(meta.name),
      avatarUrl: str(meta.avatar_url) || str(meta.picture),
    };
  }
}
