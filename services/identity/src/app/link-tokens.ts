import { jwtVerify, SignJWT } from 'jose';
import type { LinkPurpose } from '../domain/index.js';
import type { SigningKey } from './signing-key.js';

/**
 * The token in an e-mailed link: a JWT signed with the service's key that names the link's row
 * (`jti`), its purpose and its expiry. Signed when the message is sent, so no table holds a
 * usable link; its own audience, so an access token is never a link and a link never a session.
 */
export const LINK_AUDIENCE = 'flatlay-account-link';

export class LinkTokens {
  constructor(
    private readonly key: SigningKey,
    private readonly issuer: string,
  ) {}

  sign(link: { id: string; userId: string; purpose: LinkPurpose; expiresAt: Date }): Promise<string> {
    return (
      new SignJWT({ purpose: link.purpose })
        .setProtectedHeader({ alg: this.key.alg, kid: this.key.kid, typ: 'JWT' })
        .setIssuer(this.issuer)
        .setAudience(LINK_AUDIENCE)
        .setJti(link.id)
        // Whose link it is: the gateway's cache drops that user's facts after it is used.
        .setSubject(link.userId)
        .setExpirationTime(Math.floor(link.expiresAt.getTime() / 1000))
        .sign(this.key.privateKey)
    );
  }

  /** The link row a token names, when it is ours and for `purpose`; undefined otherwise (expiry is the row's to judge). */
  async linkId(token: string, purpose: LinkPurpose): Promise<string | undefined> {
    if (!token || token.length > 4096) return undefined;
    try {
      const { payload } = await jwtVerify(token, this.key.publicKey, {
        algorithms: [this.key.alg],
        issuer: this.issuer,
        audience: LINK_AUDIENCE,
        requiredClaims: ['jti', 'exp'],
        // The row's expiry decides (the same instant); a token past it is refused there with the reason.
        clockTolerance: 365 * 24 * 3600,
      });
      return payload.purpose === purpose && typeof payload.jti === 'string' ? payload.jti : undefined;
    } catch {
      return undefined;
    }
  }
}
