import { KeyObject, webcrypto } from 'node:crypto';
import { PassportStrategy } from '@nestjs/passport';
import type { Clock } from '@svc/kernel';
import passport from 'passport';
import { ExtractJwt, Strategy, VerifiedCallback } from 'passport-jwt';

/** Where the verification key of a `kid` comes from: the deployment's signing keys. */
export interface SigningKeyLookup {
  publicKey(kid: string): Promise<webcrypto.CryptoKey | undefined>;
}

export interface JwtHeader {
  alg: string;
  typ: string;
  kid: string;
}

/** A bearer JWT that passed the strategy: its protected header and its claims. */
export interface VerifiedBearerJwt {
  header: JwtHeader;
  payload: Record<string, unknown>;
}

interface JwtRequest {
  headers: { authorization: string };
  /** Set by the key provider once the header is read, for `validate`. */
  jwtHeader?: JwtHeader;
}

export const BEARER_JWT_ALGORITHMS = ['ES256'] as const;

/**
 * The service's bearer JWTs (key-exchange tokens `kx+jwt`, OAuth access tokens `at+jwt`) verified
 * through `passport-jwt` (registered with `@nestjs/passport`'s `PassportStrategy`):
 * - the header is read first, by the key provider: algorithm on the allow-list (ES256 only, so `none`
 *   and HS256-with-the-public-key are refused), `typ` among the accepted ones, `kid` a known signing
 *   key (looked up in the deployment's keys; an unknown `kid` is refused);
 * - then `jsonwebtoken` checks the signature with that key, the algorithm again, the issuer, `exp` and
 *   `nbf` against the service's clock.
 * The audience and the exact `typ` of each token kind are checked by the caller, which knows what it
 * expects. `verify` never throws: any failure is `undefined`, and the caller answers 401 without saying
 * why (no token content reaches a log or a response).
 */
/** The KeyObject of each signing key's public CryptoKey (the key lookup keeps its CryptoKeys). */
const PUBLIC_KEY_OBJECTS = new WeakMap<webcrypto.CryptoKey, KeyObject>();

export class BearerJwtStrategy extends PassportStrategy(Strategy, 'docaudit-bearer-jwt') {
  constructor(keys: SigningKeyLookup, issuer: string, clock: Clock, acceptedTypes: readonly string[]) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      passReqToCallback: true,
      issuer,
      algorithms: [...BEARER_JWT_ALGORITHMS],
      secretOrKeyProvider: (request: JwtRequest, rawJwt: string, done: (error: Error | null, key?: string) => void) => {
        const header = readHeader(rawJwt);
        if (!header || !(BEARER_JWT_ALGORITHMS as readonly string[]).includes(header.alg) || !acceptedTypes.includes(header.typ)) {
          return done(new Error('refused header'));
        }
        keys.publicKey(header.kid).then(
          (key) => {
            if (!key) return done(new Error('unknown kid'));
            request.jwtHeader = header;
            // A public KeyObject, converted once per signing key: `jsonwebtoken` takes it as it is (a PEM
            // string would be parsed again on every request), and an asymmetric key can never pass as
            // an HS256 secret.
            let keyObject = PUBLIC_KEY_OBJECTS.get(key);
            if (!keyObject) {
              keyObject = KeyObject.from(key);
              PUBLIC_KEY_OBJECTS.set(key, keyObject);
            }
            done(null, keyObject as unknown as string);
          },
          (error: Error) => done(error),
        );
      },
    });
    // `jsonwebtoken` reads `clockTimestamp` at each verification: expiry follows the service's clock.
    Object.defineProperty((this as unknown as { _verifOpts: object })._verifOpts, 'clockTimestamp', {
      get: () => Math.floor(clock.now().getTime() / 1000),
      enumerable: true,
    });
  }

  validate(request: JwtRequest, payload: Record<string, unknown>): VerifiedBearerJwt | false {
    return request.jwtHeader ? { header: request.jwtHeader, payload } : false;
  }

  /** Runs the strategy on one token, through passport's own `authenticate`. */
  verify(token: string): Promise<VerifiedBearerJwt | undefined> {
    return new Promise((resolve) => {
      const request: JwtRequest = { headers: { authorization: `Bearer ${token}` } };
      const middleware = passport.authenticate(this, { session: false }, (error: unknown, user: VerifiedBearerJwt | false) => resolve(error || !user ? undefined : user));
      (middleware as (req: unknown, res: unknown, next: VerifiedCallback) => void)(request, {}, () => resolve(undefined));
    });
  }
}

/** The protected header of a compact JWT, when it has the fields the strategy needs. */
function readHeader(rawJwt: string): JwtHeader | undefined {
  try {
    const header = JSON.parse(Buffer.from(rawJwt.split('.')[0] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
    if (typeof header.alg !== 'string' || typeof header.typ !== 'string' || typeof header.kid !== 'string') return undefined;
    return { alg: header.alg, typ: header.typ, kid: header.kid };
  } catch {
    return undefined;
  }
}
