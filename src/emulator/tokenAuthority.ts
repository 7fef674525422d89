import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Settings of {@link TokenAuthority}. */
interface TokenAuthorityOptions {
  /** Always accepted as Bearer. @defaultValue a random one */
  staticToken?: string;
  /** @defaultValue a random one */
  clientId?: string;
  /** @defaultValue a random one */
  clientSecret?: string;
  /** Lifetime of issued tokens, in seconds (fractions allowed). @defaultValue 3600 */
  tokenTtlSeconds?: number;
}

const digest = (s: string) => createHash('sha256').update(s).digest();
/** Compares in constant time (over digests, so lengths do not leak either). */
const same = (a: string, b: string) => timingSafeEqual(digest(a), digest(b));

/**
 * Issues and checks the emulator's access tokens: one static token, and short-lived tokens from
 * the OAuth 2.0 client-credentials grant.
 *
 * @remarks Tokens and secrets are compared in constant time and are never logged or echoed.
 * Expired tokens are forgotten when the next token is issued.
 */
export class TokenAuthority {
  readonly staticToken: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly ttlSeconds: number;
  private readonly issued = new Map<string, number>(); // sha256(token) hex → expiry (epoch ms)

  /** @param options - the static token, client credentials and token lifetime */
  constructor(options: TokenAuthorityOptions = {}) {
    this.staticToken = options.staticToken ?? `emu_${randomBytes(18).toString('base64url')}`;
    this.clientId = options.clientId ?? `emu-client-${randomBytes(4).toString('hex')}`;
    this.clientSecret = options.clientSecret ?? randomBytes(18).toString('base64url');
    this.ttlSeconds = options.tokenTtlSeconds ?? 3600;
    if (!(this.ttlSeconds > 0)) throw new Error('[Emulator] tokenTtlSeconds must be a number above 0');
    if (!this.staticToken || !this.clientId || !this.clientSecret) throw new Error('[Emulator] staticToken, clientId and clientSecret must not be empty');
  }

  /**
   * Checks an `Authorization` header.
   *
   * @param header - the header's value, or null
   * @returns true for `Bearer <static token>` or `Bearer <issued token not yet expired>`
   */
  check(header: string | null): boolean {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
    if (!match) return false;
    const token = match[1]!;
    if (same(token, this.staticToken)) return true;
    const expiry = this.issued.get(digest(token).toString('hex'));
    return expiry !== undefined && Date.now() < expiry;
  }

  /**
   * Answers a client-credentials grant (the form body of `POST /api/oauth/token`).
   *
   * @param form - the parsed form body
   * @returns the HTTP status and the JSON body, as OAuth 2.0 (RFC 6749 §5) shapes them
   */
  grant(form: URLSearchParams): { status: number; body: Record<string, unknown> } {
    if (form.get('grant_type') !== 'client_credentials') {
      return { status: 400, body: { error: 'unsupported_grant_type', error_description: 'grant_type must be client_credentials' } };
    }
    if (!same(form.get('client_id') ?? '', this.clientId) || !same(form.get('client_secret') ?? '', this.clientSecret)) {
      return { status: 401, body: { error: 'invalid_client', error_description: 'unknown client_id or wrong client_secret' } };
    }
    const now = Date.now();
    for (const [key, expiry] of this.issued) if (expiry <= now) this.issued.delete(key);
    const token = `emu_${randomBytes(24).toString('base64url')}`;
    this.issued.set(digest(token).toString('hex'), now + this.ttlSeconds * 1000);
    return { status: 200, body: { access_token: token, token_type: 'Bearer', expires_in: Math.ceil(this.ttlSeconds) } };
  }
}
