/** Why a TokenAccount refuses a command: an error value with a code the transports map once. */

export type TokenAccountRefusalCode =
  | 'INSUFFICIENT_TOKENS'
  | 'ACCOUNT_CLOSED'
  | 'SPEND_NOT_FOUND'
  | 'PAYMENT_NOT_FOUND'
  | 'PLAN_GRANT_NOT_FOUND'
  | 'UNKNOWN_PLAN'
  | 'INVALID_ARGUMENT';

export interface TokenAccountRefusalDetails {
  /** The balance when the command was refused (always set). */
  readonly balance: number;
  /** Tokens the command needed (INSUFFICIENT_TOKENS). */
  readonly required?: number;
  /** The offending field (INVALID_ARGUMENT, UNKNOWN_PLAN). */
  readonly field?: string;
}

export class TokenAccountRefusal extends Error {
  override readonly name = 'TokenAccountRefusal';
  readonly code: TokenAccountRefusalCode;
  readonly balance: number;
  readonly required: number | undefined;
  readonly field: string | undefined;

  constructor(code: TokenAccountRefusalCode, message: string, details: TokenAccountRefusalDetails) {
    super(message);
    this.code = code;
    this.balance = details.balance;
    this.required = details.required;
    this.field = details.field;
  }
}

export function isTokenAccountRefusal(error: unknown): error is TokenAccountRefusal {
  return error instanceof TokenAccountRefusal;
}
