import { Principal, Role } from '@svc/kernel';
import { domainErrorOf } from '@svc/kernel/testing';
import { AuthSettings } from './auth-settings';
import type { User } from './identity.model';
import { LoginWithPassword, Logout, ReadSession, RefreshSession, SessionTokens, SetMemberPassword } from './sessions';
import {
  FakeTokenService,
  FixedClock,
  ImmediateUnitOfWork,
  InMemoryLoginAccountRepository,
  InMemorySessionRepository,
  InMemoryUnknownLoginFailures,
  InMemoryUserRepository,
  PlainPasswordHasher,
  RecordingActivityLog,
  TestIds,
} from './testing/in-memory-identity';

const HOUR = 3600;
const PASSWORD = 'correct horse battery';
const MAX_FAILURES = 3;

function setup(sessionMaxSeconds = 8 * HOUR) {
  const clock = new FixedClock();
  const users = new InMemoryUserRepository();
  const accounts = new InMemoryLoginAccountRepository(users);
  const sessions = new InMemorySessionRepository();
  const hasher = new PlainPasswordHasher();
  const tokens = new FakeTokenService(clock);
  const activity = new RecordingActivityLog();
  const unknownFailures = new InMemoryUnknownLoginFailures(clock);
  const settings = new AuthSettings(sessionMaxSeconds, 600, 30 * 24 * HOUR, MAX_FAILURES, []);
  const sessionTokens = new SessionTokens(tokens, settings, clock);
  const read = new ReadSession(tokens, sessions, users, clock);
  return {
    clock,
    users,
    accounts,
    sessions,
    hasher,
    tokens,
    activity,
    settings,
    read,
    unknownFailures,
    login: new LoginWithPassword(accounts, unknownFailures, sessions, hasher, sessionTokens, settings, new TestIds(), clock, activity),
    refresh: new RefreshSession(read, sessionTokens, settings),
    logout: new Logout(read, sessions, settings, clock, activity),
    setPassword: new SetMemberPassword(users, accounts, hasher, new ImmediateUnitOfWork(), activity),
  };
}

type Setup = ReturnType<typeof setup>;

async function addPerson(s: Setup, overrides: Partial<User> = {}, password: string | null = PASSWORD): Promise<User> {
  const user: User = { id: `usr_${s.users.users.size + 1}`, organizationId: 'org_a', email: 'ada@example.com', name: 'Ada', roles: ['STEWARD'], kind: 'person', createdAt: s.clock.now(), ...overrides };
  await s.users.insert(user);
  if (password !== null) await s.accounts.setPassword(user.id, await s.hasher.hash(password));
  return (await s.users.get(user.organizationId, user.id)) as User;
}


const admin = (roles: Role[] = ['ADMIN']): Principal => ({ organizationId: 'org_a', userId: 'usr_admin', roles, credential: { kind: 'session_cookie', id: 'ses_admin' } });
const seconds = (n: number) => n * 1000;

describe('LoginWithPassword', () => {
  it('opens a server-side session and returns its cookie token for the right e-mail and password', async () => {
    const s = setup();
    const ada = await addPerson(s);
    const result = await s.login.execute('ada@example.com', PASSWORD);

    expect(result.user.id).toBe(ada.id);
    expect(result.session).toMatchObject({ userId: ada.id, organizationId: 'org_a', revokedAt: null, createdAt: s.clock.now(), expiresAt: new Date(s.clock.now().getTime() + seconds(8 * HOUR)) });
    expect(result.session.id).toMatch(/^ses_/);
    expect(s.sessions.sessions.get(result.session.id)).toBeDefined();
    expect(result.maxAgeSeconds).toBe(900 + 300);
    const read = await s.read.execute(result.token);
    expect(read.principal).toEqual({ organizationId: 'org_a', userId: ada.id, roles: ['STEWARD'], credential: { kind: 'session_cookie', id: result.session.id } });
    expect(s.activity.entries).toMatchObject([{ action: 'identity.session.login', subjectId: result.session.id, organizationId: 'org_a' }]);
    expect(JSON.stringify(s.activity.entries)).not.toContain(PASSWORD);
  });

  it('ignores case and surrounding spaces in the e-mail', async () => {
    const s = setup();
    const ada = await addPerson(s);
    await expect(s.login.execute('  ADA@Example.com ', PASSWORD)).resolves.toMatchObject({ user: { id: ada.id } });
  });

  it('answers a wrong password, an unknown e-mail and a person without a password with the same error', async () => {
    const s = setup();
    await addPerson(s);
    await addPerson(s, { email: 'nopass@example.com' }, null);
    const errors = [
      await domainErrorOf(s.login.execute('ada@example.com', 'wrong password!!')),
      await domainErrorOf(s.login.execute('nobody@example.com', PASSWORD)),
      await domainErrorOf(s.login.execute('nopass@example.com', PASSWORD)),
    ];
    for (const error of errors) expect({ kind: error.kind, code: error.code, message: error.message }).toEqual({ kind: 'unauthenticated', code: 'AUTH.INVALID_LOGIN', message: 'The e-mail or password is incorrect.' });
    expect(s.sessions.sessions.size).toBe(0);
  });

  it('spends a password verification on unknown e-mails too, so timing does not reveal accounts', async () => {
    const s = setup();
    s.hasher.verifications = 0;
    await domainErrorOf(s.login.execute('nobody@example.com', PASSWORD));
    await domainErrorOf(s.login.execute('nobody-else@example.com', PASSWORD));
    expect(s.hasher.verifications).toBe(2);
  });

  it('never signs in a service account, even with an e-mail and a password set', async () => {
    const s = setup();
    await addPerson(s, { email: 'bot@example.com', kind: 'service' });
    expect((await domainErrorOf(s.login.execute('bot@example.com', PASSWORD))).code).toBe('AUTH.INVALID_LOGIN');
  });

  it('locks the account after the configured number of failures, refusing even the right password with a retry delay', async () => {
    const s = setup();
    await addPerson(s);
    for (let i = 0; i < MAX_FAILURES; i++) expect((await domainErrorOf(s.login.execute('ada@example.com', 'wrong password!!'))).code).toBe('AUTH.INVALID_LOGIN');

    const locked = await domainErrorOf(s.login.execute('ada@example.com', PASSWORD));
    expect(locked).toMatchObject({ kind: 'rate_limited', code: 'AUTH.ACCOUNT_LOCKED', retryAfterSeconds: 900 });
    expect(s.sessions.sessions.size).toBe(0);
  });

  it('does not lock before the configured number of failures', async () => {
    const s = setup();
    await addPerson(s);
    for (let i = 0; i < MAX_FAILURES - 1; i++) await domainErrorOf(s.login.execute('ada@example.com', 'wrong password!!'));
    await expect(s.login.execute('ada@example.com', PASSWORD)).resolves.toBeDefined();
  });

  it('resets the failure count on a successful sign-in', async () => {
    const s = setup();
    await addPerson(s);
    for (let i = 0; i < MAX_FAILURES - 1; i++) await domainErrorOf(s.login.execute('ada@example.com', 'wrong password!!'));
    await s.login.execute('ada@example.com', PASSWORD);
    for (let i = 0; i < MAX_FAILURES - 1; i++) expect((await domainErrorOf(s.login.execute('ada@example.com', 'wrong password!!'))).code).toBe('AUTH.INVALID_LOGIN');
    await expect(s.login.execute('ada@example.com', PASSWORD)).resolves.toBeDefined();
  });

  it('keeps the lock for its whole duration whatever is tried, then accepts the right password once it expires', async () => {
    const s = setup();
    await addPerson(s);
    for (let i = 0; i < MAX_FAILURES; i++) await domainErrorOf(s.login.execute('ada@example.com', 'wrong password!!'));

    s.clock.advance(seconds(600));
    // Guessing while locked neither succeeds nor extends the lock.
    expect(await domainErrorOf(s.login.execute('ada@example.com', 'another guess!!!'))).toMatchObject({ code: 'AUTH.ACCOUNT_LOCKED', retryAfterSeconds: 300 });
    s.clock.advance(seconds(299));
    expect(await domainErrorOf(s.login.execute('ada@example.com', PASSWORD))).toMatchObject({ code: 'AUTH.ACCOUNT_LOCKED', retryAfterSeconds: 1 });

    s.clock.advance(seconds(1));
    const result = await s.login.execute('ada@example.com', PASSWORD);
    expect(result.session.userId).toBeDefined();
    expect(s.accounts.credentials.get(result.user.id)).toMatchObject({ failedLogins: 0, lockedUntil: null });
  });

  it('refuses an e-mail without an account like a locked one after as many failures, so the lockout reveals no account', async () => {
    const s = setup();
    for (let i = 0; i < MAX_FAILURES; i++) expect((await domainErrorOf(s.login.execute('nobody@example.com', PASSWORD))).code).toBe('AUTH.INVALID_LOGIN');
    expect(await domainErrorOf(s.login.execute('Nobody@example.com ', PASSWORD))).toMatchObject({ kind: 'rate_limited', code: 'AUTH.ACCOUNT_LOCKED', retryAfterSeconds: 900 });
    s.clock.advance(seconds(900));
    expect((await domainErrorOf(s.login.execute('nobody@example.com', PASSWORD))).code).toBe('AUTH.INVALID_LOGIN');
  });

  it('starts a new count once a lock has run out: one more mistake does not lock the account again', async () => {
    const s = setup();
    await addPerson(s);
    for (let i = 0; i < MAX_FAILURES; i++) await domainErrorOf(s.login.execute('ada@example.com', 'wrong password!!'));
    s.clock.advance(seconds(900));
    expect((await domainErrorOf(s.login.execute('ada@example.com', 'wrong password!!'))).code).toBe('AUTH.INVALID_LOGIN');
    await expect(s.login.execute('ada@example.com', PASSWORD)).resolves.toBeDefined();
  });

  it('signs in the person whose password matches when the e-mail exists in two organisations', async () => {
    const s = setup();
    await addPerson(s, { organizationId: 'org_a' }, 'password of org a');
    const inB = await addPerson(s, { organizationId: 'org_b' }, 'password of org b');
    const result = await s.login.execute('ada@example.com', 'password of org b');
    expect(result.user.id).toBe(inB.id);
    expect(result.session.organizationId).toBe('org_b');
  });
});

describe('SessionTokens', () => {
  it('never issues a cookie token that outlives the session absolute end', async () => {
    const s = setup(1000);
    await addPerson(s);
    const { token, session } = await s.login.execute('ada@example.com', PASSWORD);
    expect(s.tokens.inspect(token).expiresAt - s.tokens.inspect(token).issuedAt).toBe(900);

    s.clock.advance(seconds(880));
    const refreshed = await s.refresh.execute(token);
    expect(refreshed.session.id).toBe(session.id);
    expect(s.tokens.inspect(refreshed.token).expiresAt).toBe(Math.floor(session.expiresAt.getTime() / 1000));
    expect(refreshed.maxAgeSeconds).toBe(120 + 300);
  });
});

describe('ReadSession', () => {
  it('refuses an expired cookie token, with no grace outside refresh and logout', async () => {
    const s = setup();
    await addPerson(s);
    const { token } = await s.login.execute('ada@example.com', PASSWORD);
    s.clock.advance(seconds(899));
    await expect(s.read.execute(token)).resolves.toBeDefined();
    s.clock.advance(seconds(1));
    expect((await domainErrorOf(s.read.execute(token))).kind).toBe('unauthenticated');
  });

  it('refuses the session of a user who no longer exists', async () => {
    const s = setup();
    const ada = await addPerson(s);
    const { token } = await s.login.execute('ada@example.com', PASSWORD);
    s.users.users.delete(ada.id);
    expect(await domainErrorOf(s.read.execute(token))).toMatchObject({ kind: 'unauthenticated', code: 'AUTH.INVALID_SESSION' });
  });

  it('refuses a validly signed token that names another user session', async () => {
    const s = setup();
    await addPerson(s);
    const mallory = await addPerson(s, { email: 'mallory@example.com' });
    const { session } = await s.login.execute('ada@example.com', PASSWORD);
    const forged = await s.tokens.signSessionToken({ sessionId: session.id, subject: mallory.id, organizationId: 'org_a', roles: ['ADMIN'] }, 900);
    expect(await domainErrorOf(s.read.execute(forged.token))).toMatchObject({ code: 'AUTH.INVALID_SESSION' });
  });

  it('reads roles from the user record, not from the token', async () => {
    const s = setup();
    const ada = await addPerson(s);
    const { token } = await s.login.execute('ada@example.com', PASSWORD);
    ada.roles = ['CONSUMER'];
    expect((await s.read.execute(token)).principal.roles).toEqual(['CONSUMER']);
  });
});

describe('RefreshSession', () => {
  it('renews an expired cookie within the grace period, for the same session with fresh roles', async () => {
    const s = setup();
    const ada = await addPerson(s);
    const { token, session } = await s.login.execute('ada@example.com', PASSWORD);
    ada.roles = ['ADMIN'];
    s.clock.advance(seconds(900 + 299));

    const renewed = await s.refresh.execute(token);
    expect(renewed.session.id).toBe(session.id);
    expect(renewed.token).not.toBe(token);
    expect(s.tokens.inspect(renewed.token).claims).toMatchObject({ sessionId: session.id, roles: ['ADMIN'] });
    await expect(s.read.execute(renewed.token)).resolves.toMatchObject({ session: { id: session.id } });
  });

  it('refuses a cookie expired for longer than the grace period', async () => {
    const s = setup();
    await addPerson(s);
    const { token } = await s.login.execute('ada@example.com', PASSWORD);
    s.clock.advance(seconds(900 + 300));
    expect((await domainErrorOf(s.refresh.execute(token))).kind).toBe('unauthenticated');
  });

  it('stops renewing at the session absolute maximum, however often the cookie was refreshed', async () => {
    const s = setup(HOUR);
    await addPerson(s);
    let { token } = await s.login.execute('ada@example.com', PASSWORD);
    for (let elapsed = 0; elapsed + 840 < HOUR; elapsed += 840) {
      s.clock.advance(seconds(840));
      ({ token } = await s.refresh.execute(token));
    }
    s.clock.advance(seconds(HOUR - 4 * 840));
    expect(await domainErrorOf(s.refresh.execute(token))).toMatchObject({ kind: 'unauthenticated', code: 'AUTH.INVALID_SESSION' });
    expect(await domainErrorOf(s.read.execute(token))).toMatchObject({ kind: 'unauthenticated' });
  });
});

describe('Logout', () => {
  it('revokes the session so every copy of its cookie, and refresh, fail afterwards', async () => {
    const s = setup();
    await addPerson(s);
    const first = await s.login.execute('ada@example.com', PASSWORD);
    const renewed = await s.refresh.execute(first.token);

    await expect(s.logout.execute(first.token)).resolves.toBe(true);

    expect(s.sessions.sessions.get(first.session.id)?.revokedAt).toEqual(s.clock.now());
    for (const token of [first.token, renewed.token]) {
      expect(await domainErrorOf(s.read.execute(token))).toMatchObject({ code: 'AUTH.INVALID_SESSION' });
      expect(await domainErrorOf(s.refresh.execute(token))).toMatchObject({ code: 'AUTH.INVALID_SESSION' });
    }
    expect(s.activity.entries.map((e) => e.action)).toEqual(['identity.session.login', 'identity.session.logout']);
    expect(s.activity.entries[1]).toMatchObject({ subjectId: first.session.id, actor: { credential: { kind: 'session_cookie', id: first.session.id } } });
  });

  it('leaves other sessions of the same person signed in', async () => {
    const s = setup();
    await addPerson(s);
    const laptop = await s.login.execute('ada@example.com', PASSWORD);
    const phone = await s.login.execute('ada@example.com', PASSWORD);
    await s.logout.execute(laptop.token);
    await expect(s.read.execute(phone.token)).resolves.toMatchObject({ session: { id: phone.session.id } });
  });

  it('signs out with a cookie expired within the grace period', async () => {
    const s = setup();
    await addPerson(s);
    const { token, session } = await s.login.execute('ada@example.com', PASSWORD);
    s.clock.advance(seconds(900 + 120));
    await expect(s.logout.execute(token)).resolves.toBe(true);
    expect(s.sessions.sessions.get(session.id)?.revokedAt).not.toBeNull();
  });

  it('treats a missing, unknown or already signed-out cookie as signed out, without error or log', async () => {
    const s = setup();
    await addPerson(s);
    const { token } = await s.login.execute('ada@example.com', PASSWORD);
    await s.logout.execute(token);
    s.activity.entries.length = 0;
    await expect(s.logout.execute(undefined)).resolves.toBe(false);
    await expect(s.logout.execute('')).resolves.toBe(false);
    await expect(s.logout.execute('not-a-token')).resolves.toBe(false);
    await expect(s.logout.execute(token)).resolves.toBe(false);
    expect(s.activity.entries).toEqual([]);
  });

  it('reports a session store outage instead of pretending the user is signed out', async () => {
    const s = setup();
    await addPerson(s);
    const { token } = await s.login.execute('ada@example.com', PASSWORD);
    s.sessions.failWith = new Error('connect ECONNREFUSED');
    await expect(s.logout.execute(token)).rejects.toThrow('ECONNREFUSED');
  });
});

describe('SetMemberPassword', () => {
  it('lets an organisation admin set a password the person can then sign in with', async () => {
    const s = setup();
    const bob = await addPerson(s, { email: 'bob@example.com' }, null);
    await s.setPassword.execute(admin(), 'org_a', bob.id, 'a brand new password');
    await expect(s.login.execute('bob@example.com', 'a brand new password')).resolves.toMatchObject({ user: { id: bob.id } });
    expect(s.activity.entries[0]).toMatchObject({ action: 'identity.member.set-password', subjectId: bob.id, actor: admin(), before: null, after: null });
    expect(JSON.stringify(s.activity.entries)).not.toContain('a brand new password');
  });

  it('unlocks a locked account and replaces the old password', async () => {
    const s = setup();
    const ada = await addPerson(s);
    for (let i = 0; i < MAX_FAILURES; i++) await domainErrorOf(s.login.execute('ada@example.com', 'wrong password!!'));
    await s.setPassword.execute(null, 'org_a', ada.id, 'a brand new password');
    expect((await domainErrorOf(s.login.execute('ada@example.com', PASSWORD))).code).toBe('AUTH.INVALID_LOGIN');
    await expect(s.login.execute('ada@example.com', 'a brand new password')).resolves.toBeDefined();
  });

  it('refuses actors who are not organisation admins', async () => {
    const s = setup();
    const ada = await addPerson(s);
    expect(await domainErrorOf(s.setPassword.execute(admin(['STEWARD', 'AUTHORITY_MANAGER']), 'org_a', ada.id, 'a brand new password'))).toMatchObject({ kind: 'forbidden', code: 'AUTH.ROLE_NOT_ALLOWED' });
    await expect(s.login.execute('ada@example.com', PASSWORD)).resolves.toBeDefined();
  });

  it('refuses passwords shorter than 12 characters and accepts exactly 12', async () => {
    const s = setup();
    const ada = await addPerson(s);
    expect(await domainErrorOf(s.setPassword.execute(admin(), 'org_a', ada.id, '12345678901'))).toMatchObject({ kind: 'invalid', code: 'IDENTITY.PASSWORD_TOO_SHORT', errors: [{ field: 'password' }] });
    await s.setPassword.execute(admin(), 'org_a', ada.id, '123456789012');
    await expect(s.login.execute('ada@example.com', '123456789012')).resolves.toBeDefined();
  });

  it('refuses unknown users, users of another organisation and service accounts', async () => {
    const s = setup();
    const other = await addPerson(s, { organizationId: 'org_b' });
    const bot = await addPerson(s, { email: null, kind: 'service' }, null);
    expect(await domainErrorOf(s.setPassword.execute(admin(), 'org_a', 'usr_missing', 'a brand new password'))).toMatchObject({ kind: 'not_found', code: 'IDENTITY.USER_NOT_FOUND' });
    expect(await domainErrorOf(s.setPassword.execute(admin(), 'org_a', other.id, 'a brand new password'))).toMatchObject({ kind: 'not_found' });
    expect(await domainErrorOf(s.setPassword.execute(admin(), 'org_a', bot.id, 'a brand new password'))).toMatchObject({ kind: 'invalid', code: 'IDENTITY.NOT_A_PERSON' });
    expect(s.accounts.credentials.get(bot.id)?.passwordHash ?? null).toBeNull();
    expect(s.activity.entries).toEqual([]);
  });
});
