import { randomUUID, webcrypto } from 'node:crypto';

type CryptoKey = webcrypto.CryptoKey;
import { Injectable } from '@nestjs/common';
import { TypeOrmUnitOfWork } from '@svc/database';
import { AccessTokenClaims, OAuthAccessClaims, SessionTokenClaims, SignedToken, TokenService } from '@svc/identity-core';
import { Clock, DomainError, isRole, Role } from '@svc/kernel';
import { decodeProtectedHeader, exportJWK, generateKeyPair, importJWK, JWK, JWTPayload, jwtVerify, SignJWT } from 'jose';
import { IsNull } from 'typeorm';
import { SecretBox } from '@svc/config';
import { BearerJwtStrategy, VerifiedBearerJwt } from './bearer-jwt.strategy';
import { SigningKeyOrmEntity } from './identity.orm-entities';

export const SIGNING_ALGORITHM = 'ES256';
/** Audience of key-exchange tokens: the service's REST APIs (platform, audit, retrieval). */
export const API_AUDIENCE = 'urn:docaudit:api';
export const EXCHANGE_TOKEN_TYPE = 'kx+jwt';
/** Session cookie tokens: their own type and audience, so a cookie is never a bearer token. */
export const SESSION_TOKEN_TYPE = 'session+jwt';
export const SESSION_AUDIENCE = 'urn:docaudit:session';
/** OAuth access tokens (RFC 9068); the audience is the protected resource's URL. */
export const ACCESS_TOKEN_TYPE = 'at+jwt';
const REQUIRED_CLAIMS = ['iss', 'aud', 'exp', 'nbf', 'iat', 'jti', 'sub'];
/** How long, at most, a verified bearer token is accepted again without checking its signature. */
const BEARER_CACHE_SECONDS = 60;
/** Verified bearer tokens remembered at once; the oldest is forgotten first. */
const BEARER_CACHE_ENTRIES = 10_000;

interface ActiveKey {
  kid: string;
  privateKey: CryptoKey;
}

function rolesOf(payload: JWTPayload): Role[] {
  return Array.isArray(payload.roles) ? (payload.roles.filter(isRole) as Role[]) : [];
}

const INVALID_TOKEN = () => DomainError.unauthenticated('AUTH.INVALID_TOKEN', 'The access token is invalid or expired.');

/**
 * ES256 signing with keys kept in `identity.signing_keys` (private part sealed with a key derived
 * from AUTH_SECRET), so every app of a deployment signs and verifies with the same keys and the
 * JWKS survives restarts; `jose` signs and serves the JWKS. Bearer tokens (key-exchange and OAuth
 * access tokens) are verified through `passport-jwt` (`BearerJwtStrategy`), session cookies through
 * `jose` (they need a grace period on `exp`). Either way verification allows only ES256, requires iss,
 * aud, exp, nbf, iat, jti and sub, looks the `kid` up among the signing keys, and checks `typ` so one
 * kind of token is never accepted as another.
 */
@Injectable()
export class JoseTokenService extends TokenService {
  private active?: Promise<ActiveKey>;
  private publicKeys = new Map<string, CryptoKey>();
  private publicKeysLoadedAt = 0;
  private readonly bearer: BearerJwtStrategy;
  private readonly verifiedBearers = new Map<string, { verified: VerifiedBearerJwt; until: number }>();

  constructor(
    private readonly uow: TypeOrmUnitOfWork,
    private readonly box: SecretBox,
    private readonly clock: Clock,
    private readonly issuer: string,
  ) {
    super();
    this.bearer = new BearerJwtStrategy({ publicKey: (kid) => this.publicKey(kid) }, issuer, clock, [EXCHANGE_TOKEN_TYPE, ACCESS_TOKEN_TYPE]);
  }

  async signExchangeToken(claims: AccessTokenClaims, lifetimeSeconds: number): Promise<SignedToken> {
    return this.sign(EXCHANGE_TOKEN_TYPE, API_AUDIENCE, claims.subject, { org_id: claims.organizationId, roles: claims.roles, key_id: claims.credentialId }, lifetimeSeconds);
  }

  async verifyExchangeToken(token: string): Promise<AccessTokenClaims> {
    const payload = await this.verify(token, EXCHANGE_TOKEN_TYPE, API_AUDIENCE);
    if (typeof payload.org_id !== 'string' || typeof payload.key_id !== 'string') throw INVALID_TOKEN();
    return { subject: payload.sub as string, organizationId: payload.org_id, roles: rolesOf(payload), credentialId: payload.key_id };
  }

  async signSessionToken(claims: SessionTokenClaims, lifetimeSeconds: number): Promise<SignedToken> {
    return this.sign(SESSION_TOKEN_TYPE, SESSION_AUDIENCE, claims.subject, { org_id: claims.organizationId, roles: claims.roles, sid: claims.sessionId }, lifetimeSeconds);
  }

  async verifySessionToken(token: string, graceSeconds: number): Promise<SessionTokenClaims> {
    const payload = await this.verify(token, SESSION_TOKEN_TYPE, SESSION_AUDIENCE, graceSeconds);
    if (typeof payload.org_id !== 'string' || typeof payload.sid !== 'string') throw INVALID_TOKEN();
    return { subject: payload.sub as string, organizationId: payload.org_id, roles: rolesOf(payload), sessionId: payload.sid };
  }

  async signAccessToken(claims: Omit<OAuthAccessClaims, 'expiresAt'>, lifetimeSeconds: number): Promise<SignedToken> {
    return this.sign(
      ACCESS_TOKEN_TYPE,
      claims.audience,
      claims.subject,
      { org_id: claims.organizationId, roles: claims.roles, client_id: claims.clientId, scope: claims.scopes.join(' '), grant_id: claims.grantId },
      lifetimeSeconds,
    );
  }

  async verifyAccessToken(token: string, audiences: readonly string[]): Promise<OAuthAccessClaims> {
    const payload = await this.verify(token, ACCESS_TOKEN_TYPE, [...audiences]);
    const { org_id, client_id, scope, grant_id, aud, exp } = payload;
    if (typeof org_id !== 'string' || typeof client_id !== 'string' || typeof scope !== 'string' || typeof grant_id !== 'string' || typeof aud !== 'string') throw INVALID_TOKEN();
    return { subject: payload.sub as string, organizationId: org_id, roles: rolesOf(payload), clientId: client_id, scopes: scope.split(' ').filter(Boolean), audience: aud, grantId: grant_id, expiresAt: exp as number };
  }

  private async sign(typ: string, audience: string, subject: string, claims: Record<string, unknown>, lifetimeSeconds: number): Promise<SignedToken> {
    const key = await this.activeKey();
    const issuedAt = Math.floor(this.clock.now().getTime() / 1000);
    const expiresAt = issuedAt + lifetimeSeconds;
    const token = await new SignJWT(claims)
      .setProtectedHeader({ alg: SIGNING_ALGORITHM, kid: key.kid, typ })
      .setIssuer(this.issuer)
      .setAudience(audience)
      .setSubject(subject)
      .setJti(randomUUID())
      .setIssuedAt(issuedAt)
      .setNotBefore(issuedAt)
      .setExpirationTime(expiresAt)
      .sign(key.privateKey);
    return { token, issuedAt, expiresAt };
  }

  /** Signature by a known key, ES256 only, the expected `typ`, issuer and audience, every registered claim present. */
  private async verify(token: string, typ: string, audience: string | string[], graceSeconds = 0): Promise<JWTPayload> {
    if (typ !== SESSION_TOKEN_TYPE) return this.verifyBearer(token, typ, audience);
    let kid: string | undefined;
    try {
      kid = decodeProtectedHeader(token).kid;
    } catch {
      throw INVALID_TOKEN();
    }
    if (!kid) throw INVALID_TOKEN();
    const publicKey = await this.publicKey(kid);
    if (!publicKey) throw INVALID_TOKEN();
    try {
      const { payload } = await jwtVerify(token, publicKey, {
        algorithms: [SIGNING_ALGORITHM],
        issuer: this.issuer,
        audience,
        typ,
        requiredClaims: REQUIRED_CLAIMS,
        currentDate: this.clock.now(),
        // Grace applies to `exp` (cookie refresh); `nbf` in the future is refused either way.
        clockTolerance: graceSeconds,
      });
      if (typeof payload.sub !== 'string') throw INVALID_TOKEN();
      if (graceSeconds > 0 && typeof payload.nbf === 'number' && payload.nbf > Math.floor(this.clock.now().getTime() / 1000) + 5) throw INVALID_TOKEN();
      return payload;
    } catch {
      throw INVALID_TOKEN();
    }
  }

  /** A bearer token through passport-jwt, then its kind: exact `typ`, one of the audiences, every registered claim. */
  private async verifyBearer(token: string, typ: string, audience: string | string[]): Promise<JWTPayload> {
    const verified = await this.verifiedSignature(token);
    if (!verified || verified.header.typ !== typ) throw INVALID_TOKEN();
    const payload = verified.payload as JWTPayload;
    const expected = Array.isArray(audience) ? audience : [audience];
    const given = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
    if (!given.some((aud) => typeof aud === 'string' && expected.includes(aud))) throw INVALID_TOKEN();
    if (REQUIRED_CLAIMS.some((claim) => payload[claim] === undefined) || typeof payload.sub !== 'string') throw INVALID_TOKEN();
    return payload;
  }

  /**
   * The strategy's verification of a bearer token, remembered for the same token string until the
   * earlier of its `exp` (by the service's clock) and BEARER_CACHE_SECONDS: an ES256 verification costs
   * about as much CPU as the rest of a cached read. Only successes are kept, keyed by the whole token
   * (signature included), so a forged or altered token is always verified; the kind, audience and
   * claims are still checked on every call. Signing keys are never withdrawn while the process runs,
   * so the cache accepts nothing a fresh verification would refuse before the token expires.
   */
  private async verifiedSignature(token: string): Promise<VerifiedBearerJwt | undefined> {
    const now = this.clock.now().getTime();
    const hit = this.verifiedBearers.get(token);
    if (hit && now < hit.until) return hit.verified;
    if (hit) this.verifiedBearers.delete(token);
    const verified = await this.bearer.verify(token);
    const exp = verified?.payload.exp;
    if (verified && typeof exp === 'number') {
      if (this.verifiedBearers.size >= BEARER_CACHE_ENTRIES) this.verifiedBearers.delete(this.verifiedBearers.keys().next().value as string);
      this.verifiedBearers.set(token, { verified, until: Math.min(exp * 1000, now + BEARER_CACHE_SECONDS * 1000) });
    }
    return verified;
  }

  async jwks(): Promise<{ keys: object[] }> {
    await this.activeKey();
    const rows = await this.uow.manager().find(SigningKeyOrmEntity, { order: { createdAt: 'DESC' } });
    return { keys: rows.map((r) => ({ ...r.publicJwk, kid: r.kid, alg: r.algorithm, use: 'sig' })) };
  }

  private async publicKey(kid: string): Promise<CryptoKey | undefined> {
    const now = Date.now();
    // Unknown kid: re-read at most every 5 s (another replica may have rotated), never per request.
    if (!this.publicKeys.has(kid) && now - this.publicKeysLoadedAt > 5000) {
      this.publicKeysLoadedAt = now;
      const rows = await this.uow.manager().find(SigningKeyOrmEntity);
      for (const row of rows) {
        if (!this.publicKeys.has(row.kid)) this.publicKeys.set(row.kid, (await importJWK(row.publicJwk as JWK, row.algorithm)) as CryptoKey);
      }
    }
    return this.publicKeys.get(kid);
  }

  private activeKey(): Promise<ActiveKey> {
    this.active ??= this.loadOrCreateKey().catch((error) => {
      this.active = undefined;
      throw error;
    });
    return this.active;
  }

  private async loadOrCreateKey(): Promise<ActiveKey> {
    const manager = this.uow.manager();
    let row = await manager.findOne(SigningKeyOrmEntity, { where: { retiredAt: IsNull() }, order: { createdAt: 'DESC' } });
    if (!row) {
      const { publicKey, privateKey } = await generateKeyPair(SIGNING_ALGORITHM, { extractable: true });
      const kid = randomUUID();
      await manager
        .createQueryBuilder()
        .insert()
        .into(SigningKeyOrmEntity)
        .values({ kid, algorithm: SIGNING_ALGORITHM, publicJwk: { ...(await exportJWK(publicKey)) }, privateJwkEncrypted: this.box.seal(JSON.stringify(await exportJWK(privateKey))), createdAt: this.clock.now(), retiredAt: null })
        .orIgnore()
        .execute();
      // Two replicas may race on the first start: whichever row is newest wins for both.
      row = await manager.findOneOrFail(SigningKeyOrmEntity, { where: {}, order: { createdAt: 'DESC' } });
    }
    const privateKey = (await importJWK(JSON.parse(this.box.open(row.privateJwkEncrypted)) as JWK, row.algorithm)) as CryptoKey;
    return { kid: row.kid, privateKey };
  }
}
