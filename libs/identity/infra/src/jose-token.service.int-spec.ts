import { createHmac, generateKeyPairSync, KeyObject, webcrypto } from 'node:crypto';
import { deriveKey, loadConfig, SecretBox } from '@svc/config';
import { Database, PLATFORM_MIGRATIONS } from '@svc/database';
import { Clock } from '@svc/kernel';
import { createTestDatabase, TestDatabase } from '@svc/test-kit';
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify, SignJWT } from 'jose';
import { CreateIdentitySchema1763700000100 } from './identity.migration';
import { IDENTITY_ENTITIES } from './identity.orm-entities';
import { API_AUDIENCE, JoseTokenService } from './jose-token.service';

class MovableClock extends Clock {
  current = new Date();
  now() {
    return new Date(this.current);
  }
}

const claims = { subject: 'usr_01ARZ3NDEKTSV4RRFFQ69G5FAV', organizationId: 'org_01ARZ3NDEKTSV4RRFFQ69G5FAV', roles: ['ADMIN'], credentialId: 'key_01ARZ3NDEKTSV4RRFFQ69G5FAV' };
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('JoseTokenService (key-exchange tokens)', () => {
  let testDb: TestDatabase;
  let db: Database;
  let clock: MovableClock;
  let tokens: JoseTokenService;
  const issuer = 'http://auth.example.test';

  beforeAll(async () => {
    testDb = await createTestDatabase('postgres');
    const config = loadConfig(testDb.env);
    db = await Database.open(config, { entities: IDENTITY_ENTITIES, migrations: [...PLATFORM_MIGRATIONS, CreateIdentitySchema1763700000100] });
    clock = new MovableClock();
    tokens = new JoseTokenService(db.unitOfWork, new SecretBox(deriveKey(config.authSecret, 'signing-keys')), clock, issuer);
  });
  afterAll(async () => {
    await db?.close();
    await testDb?.drop();
  });
  beforeEach(() => (clock.current = new Date()));

  it('signs ES256 tokens that a third-party verifier accepts with the published JWKS, for exactly 900 s', async () => {
    const signed = await tokens.signExchangeToken(claims, 900);
    const jwks = await tokens.jwks();
    expect(JSON.stringify(jwks)).not.toMatch(/"d":/);
    const { payload, protectedHeader } = await jwtVerify(signed.token, createLocalJWKSet(jwks as Parameters<typeof createLocalJWKSet>[0]), { issuer, audience: API_AUDIENCE });
    expect(protectedHeader).toMatchObject({ alg: 'ES256', typ: 'kx+jwt' });
    expect(payload.exp! - payload.iat!).toBe(900);
    expect(payload).toMatchObject({ sub: claims.subject, org_id: claims.organizationId, roles: ['ADMIN'], key_id: claims.credentialId });
    expect(typeof payload.jti).toBe('string');
    await expect(tokens.verifyExchangeToken(signed.token)).resolves.toEqual(claims);
  });

  it('keeps the same signing key across service instances (restart, other replicas)', async () => {
    const other = new JoseTokenService(db.unitOfWork, new SecretBox(deriveKey(loadConfig(testDb.env).authSecret, 'signing-keys')), clock, issuer);
    const signed = await other.signExchangeToken(claims, 900);
    await expect(tokens.verifyExchangeToken(signed.token)).resolves.toEqual(claims);
  });

  it('refuses an expired token and one not yet valid, also after accepting the same token before it expired', async () => {
    const signed = await tokens.signExchangeToken(claims, 900);
    await expect(tokens.verifyExchangeToken(signed.token)).resolves.toEqual(claims);
    clock.current = new Date(clock.current.getTime() + 890_000);
    await expect(tokens.verifyExchangeToken(signed.token)).resolves.toEqual(claims);
    clock.current = new Date(clock.current.getTime() + 11_000);
    await expect(tokens.verifyExchangeToken(signed.token)).rejects.toMatchObject({ kind: 'unauthenticated' });
    clock.current = new Date(Date.now() + 3600_000);
    const notYet = await tokens.signExchangeToken(claims, 900);
    clock.current = new Date();
    await expect(tokens.verifyExchangeToken(notYet.token)).rejects.toMatchObject({ kind: 'unauthenticated' });
  });

  it('refuses a validly signed token from another issuer', async () => {
    const config = loadConfig(testDb.env);
    const foreignIssuer = new JoseTokenService(db.unitOfWork, new SecretBox(deriveKey(config.authSecret, 'signing-keys')), clock, 'https://other-issuer.example');
    const signed = await foreignIssuer.signExchangeToken(claims, 900);
    await expect(tokens.verifyExchangeToken(signed.token)).rejects.toMatchObject({ kind: 'unauthenticated' });
  });

  it('refuses alg none, HS256 signed with the public key, an unknown kid, a foreign signer, another audience or issuer, tampering, another typ, no typ or kid, a missing claim', async () => {
    const signed = await tokens.signExchangeToken(claims, 900);
    const header = decodeProtectedHeader(signed.token);
    const payload = decodeJwt(signed.token);
    const [, , signature] = signed.token.split('.');
    const jwk = (await tokens.jwks()).keys[0] as Record<string, string>;
    const attempts: string[] = [];
    attempts.push(`${b64({ ...header, alg: 'none' })}.${b64(payload)}.`);
    const publicPem = KeyObject.from(await crypto.subtle.importKey('jwk', { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y }, { name: 'ECDSA', namedCurve: 'P-256' }, true, ['verify'])).export({ type: 'spki', format: 'pem' });
    const hsInput = `${b64({ ...header, alg: 'HS256' })}.${b64(payload)}`;
    attempts.push(`${hsInput}.${createHmac('sha256', publicPem).update(hsInput).digest('base64url')}`);
    attempts.push(`${b64({ ...header, kid: 'unknown' })}.${b64(payload)}.${signature}`);
    const foreign = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    attempts.push(await new SignJWT(payload).setProtectedHeader(header as { alg: string }).sign(foreign));
    attempts.push(`${b64(header)}.${b64({ ...payload, roles: ['ADMIN', 'STEWARD'] })}.${signature}`);
    attempts.push(`${b64(header)}.${b64({ ...payload, aud: 'https://elsewhere.example' })}.${signature}`);
    attempts.push(`${b64(header)}.${b64({ ...payload, iss: 'https://evil.example' })}.${signature}`);
    attempts.push('not-a-jwt');
    // Validly signed by the deployment's key, but the wrong kind or a header the allow-list refuses:
    // another typ (an access token, a session token, none), no kid, a missing registered claim.
    const { privateKey } = await (tokens as unknown as { activeKey(): Promise<{ privateKey: webcrypto.CryptoKey }> }).activeKey();
    const resign = (h: Record<string, unknown>, p: Record<string, unknown>) => new SignJWT(p).setProtectedHeader(h as { alg: string }).sign(privateKey);
    attempts.push(await resign({ ...header, typ: 'at+jwt' }, payload));
    attempts.push(await resign({ ...header, typ: 'session+jwt' }, payload));
    attempts.push(await resign({ alg: header.alg, kid: header.kid }, payload));
    attempts.push(await resign({ alg: header.alg, typ: header.typ }, payload));
    const { jti: _jti, ...withoutJti } = payload;
    attempts.push(await resign(header, withoutJti));
    // Control: the same re-signing with nothing changed is accepted (the cases above fail for their change alone).
    await expect(tokens.verifyExchangeToken(await resign(header, payload))).resolves.toEqual(claims);
    for (const token of attempts) {
      await expect(tokens.verifyExchangeToken(token)).rejects.toMatchObject({ kind: 'unauthenticated', code: 'AUTH.INVALID_TOKEN' });
    }
  });

  it('checks the kind and the audience of a token on every use, not only on its first verification', async () => {
    const signed = await tokens.signExchangeToken(claims, 900);
    const header = decodeProtectedHeader(signed.token);
    const payload = decodeJwt(signed.token);
    const { privateKey } = await (tokens as unknown as { activeKey(): Promise<{ privateKey: webcrypto.CryptoKey }> }).activeKey();
    const access = await new SignJWT({ ...payload, aud: 'https://audit.example/mcp', client_id: 'cli_1', grant_id: 'grt_1', scope: 'audit:read' })
      .setProtectedHeader({ ...header, typ: 'at+jwt' } as { alg: string })
      .sign(privateKey);
    await expect(tokens.verifyAccessToken(access, ['https://audit.example/mcp'])).resolves.toMatchObject({ subject: claims.subject });
    await expect(tokens.verifyAccessToken(access, ['https://retrieval.example/mcp'])).rejects.toMatchObject({ code: 'AUTH.INVALID_TOKEN' });
    await expect(tokens.verifyExchangeToken(access)).rejects.toMatchObject({ code: 'AUTH.INVALID_TOKEN' });
    await expect(tokens.verifyExchangeToken(signed.token)).resolves.toEqual(claims);
    await expect(tokens.verifyAccessToken(signed.token, [API_AUDIENCE])).rejects.toMatchObject({ code: 'AUTH.INVALID_TOKEN' });
  });
});
