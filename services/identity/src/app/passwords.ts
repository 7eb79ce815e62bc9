import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/** argon2id hashing; `check` costs the same whether or not the account has a password. */
export class Passwords {
  private readonly dummy: Promise<string>;

  constructor() {
    // A hash of a random secret with the same parameters: verifying against it takes as long
    // as verifying a real password, so an unknown e-mail answers in comparable time.
    this.dummy = this.hash(randomBytes(32).toString('base64url'));
  }

  hash(password: string): Promise<string> {
    return hash(password); // argon2id (the library's default algorithm) with its recommended cost
  }

  /** True when `password` matches `stored`; with no stored hash, does the same work and answers false. */
  async check(password: string, stored: string | null | undefined): Promise<boolean> {
    if (!stored) {
      await verify(await this.dummy, password).catch(() => false);
      return false;
    }
    return verify(stored, password).catch(() => false);
  }
}
