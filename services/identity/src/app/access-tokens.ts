import { randomUUID } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { AppError } from '@flatlay/platform';
import type { SigningKey } from './signing-key.js';

export type Role = 'user' | 'admin';

export interface AccessClaims {
  userId: string;
  role: Role;
  tokenId: string;
  expiresAt: Date;
  /**
   * The user's "sessions valid after" instant when the token was issued (epoch ms, 0: never
   * ended). A later cut makes the token stale: this, not `iat` (whole seconds), decides whether a
   * token predates a password change, so one issued in the same second right after it still works.
   */
  sessionsValidAfter: number;
}

/** The claim that carries AccessClaims.sessionsValidAfter. */
const SESSIONS_CLAIM = 'sva';

export interface IssuedToken extends AccessClaims {
  token: string;
}

/** Issues and checks signed access tokens (JWT): issuer, audience, expiry, token id, subject, role. */
export class AccessTokens {
  constructor(
    private readonly key: SigningKey,
    private readonly options: { issuer: string; audience: string; ttlSeconds: number; adminTtlSeconds: number },
  ) {}

  async issue(userId: string, role: Role, sessionsValidAfter: Date | null, now: Date): Promise<IssuedToken> {
    const tokenId = randomUUID();
    const iat = Math.floor(now.getTime() / 1000);
    const exp = iat + (role === 'admin' ? this.options.adminTtlSeconds : this.options.ttlSeconds);
    const sva = sessionsValidAfter?.getTime() ?? 0;
    const token = await new SignJWT({ role, [SESSIONS_CLAIM]: sva })
      .setProtectedHeader({ alg: this.key.alg, kid: this.key.kid, typ: 'JWT' })
      .setIssuer(this.options.issuer)
      .setAudience(this.options.audience)
      .setSubject(userId)
      .setJti(tokenId)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .sign(this.key.privateKey);
    return { token, userId, role, tokenId, expiresAt: new Date(exp * 1000), sessionsValidAfter: sva };
  }

  /** The token's claims, or UNAUTHENTICATED saying why not ('Not authenticated: ...'). */
  async verify(token: string, now: Date): Promise<AccessClaims> {
    if (!token) throw unauthenticated('no token was sent');
    try {
      const { payload } = await jwtVerify(token, this.key.publicKey, {
        algorithms: [this.key.alg],
        issuer: this.options.issuer,
        audience: this.options.audience,
        currentDate: now,
        requiredClaims: ['sub', 'jti', 'exp', 'iat'],
      });
      const role = payload.role;
      if ((role !== 'user' && role !== 'admin') || !isUuid(payload.sub!) || !isUuid(payload.jti!))
        throw unauthenticated('the token is malformed');
      // Tokens from before session cuts existed carry no claim: they count as issued under 0.
      const sva = payload[SESSIONS_CLAIM] ?? 0;
      if (typeof sva !== 'number' || !Number.isSafeInteger(sva) || sva < 0)
        throw unauthenticated('the token is malformed');
      return {
        userId: payload.sub!,
        role,
        tokenId: payload.jti!,
        expiresAt: new Date(payload.exp! * 1000),
        sessionsValidAfter: sva,
      };
    } catch (error) {
      if (error instanceof AppError) throw error;
      if (error instanceof joseErrors.JWTExpired) throw unauthenticated('token expired');
      if (error instanceof joseErrors.JWSSignatureVerificationFailed)
        throw unauthenticated('the token signature is invalid');
      throw unauthenticated('the token is malformed or was not issued here');
    }
  }

  /** The claims of a token whose signature is ours, even when it has expired (used by logout). */
  async verifyIgnoringExpiry(token: string): Promise<AccessClaims | undefined> {
    try {
      return await this.verify(token, new Date(0));
    } catch {
      return undefined;
    }
  }
}

export const unauthenticated = (reason: string) => new AppError('UNAUTHENTICATED', `Not authenticated: ${reason}`);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (v: string) => UUID.test(v);
