/** @jest-environment node */
import { Session } from './session';

const AUTH = 'https://auth.example.com';
const HERE = 'https://audit.example.com/app/instances/ki_1/conflicts?state=all';

/** A fake auth service: answers each call with the next scripted status, records what was called. */
function fakeAuth(statuses: number[], expiresIn = 900) {
  const calls: Array<{ url: string; method?: string; credentials?: RequestCredentials }> = [];
  const fetch = async (url: string, init: RequestInit) => {
    calls.push({ url, method: init.method, credentials: init.credentials });
    const status = statuses.shift() ?? 200;
    const body = url.endsWith('/auth/cookie-refresh') ? { response: { expires_in: expiresIn, session_expires_at: '2030-01-01T00:00:00.000Z' } } : { response: { signed_out: true } };
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  };
  return { calls, fetch };
}

describe('Session (svc_auth cookie)', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const session = (auth: ReturnType<typeof fakeAuth>) => {
    const left: string[] = [];
    return { left, session: new Session({ authUrl: AUTH, currentUrl: () => HERE, leave: (url) => left.push(url), fetch: auth.fetch }) };
  };

  it('renews the cookie at start, then again at two thirds of its lifetime, with credentials and no stored token', async () => {
    const auth = fakeAuth([200, 200]);
    const { session: s, left } = session(auth);
    await expect(s.start()).resolves.toMatchObject({ kind: 'renewed', expiresInSeconds: 900 });
    expect(auth.calls).toEqual([{ url: `${AUTH}/auth/cookie-refresh`, method: 'POST', credentials: 'include' }]);
    await jest.advanceTimersByTimeAsync(599_000);
    expect(auth.calls).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(2_000);
    expect(auth.calls).toHaveLength(2);
    expect(left).toEqual([]);
    s.stop();
  });

  it('sends the user to the login page, with a next back to where they were, when there is no session', async () => {
    const auth = fakeAuth([401]);
    const { session: s, left } = session(auth);
    await expect(s.start()).resolves.toEqual({ kind: 'ended' });
    expect(left).toEqual([`${AUTH}/auth/login?next=${encodeURIComponent(HERE)}`]);
  });

  it("asks the login page to speak the app's language", async () => {
    const auth = fakeAuth([401]);
    const left: string[] = [];
    const s = new Session({ authUrl: AUTH, currentUrl: () => HERE, leave: (url) => left.push(url), fetch: auth.fetch, language: () => 'fr' });
    await s.start();
    expect(left).toEqual([`${AUTH}/auth/login?next=${encodeURIComponent(HERE)}&lang=fr`]);
  });

  it('ends the session when a scheduled renewal is refused (absolute maximum reached, signed out elsewhere)', async () => {
    const auth = fakeAuth([200, 401]);
    const { session: s, left } = session(auth);
    await s.start();
    await jest.advanceTimersByTimeAsync(600_000);
    expect(left).toHaveLength(1);
  });

  it('keeps the session and retries later when the auth service cannot answer (network, 429, 503)', async () => {
    const auth = fakeAuth([429, 200]);
    const { session: s, left } = session(auth);
    await expect(s.start()).resolves.toEqual({ kind: 'unavailable', status: 429 });
    await jest.advanceTimersByTimeAsync(30_000);
    expect(auth.calls).toHaveLength(2);
    expect(left).toEqual([]);
    s.stop();
  });

  it('renews at once when a hidden tab comes back after the renewal was due', async () => {
    const auth = fakeAuth([200, 200]);
    const { session: s } = session(auth);
    await s.start();
    s.wake(Date.now() + 100_000);
    expect(auth.calls).toHaveLength(1);
    s.wake(Date.now() + 700_000);
    await jest.advanceTimersByTimeAsync(0);
    expect(auth.calls).toHaveLength(2);
    s.stop();
  });

  it('shares one renewal between concurrent callers', async () => {
    const auth = fakeAuth([200]);
    const { session: s } = session(auth);
    await Promise.all([s.renew(), s.renew(), s.renew()]);
    expect(auth.calls).toHaveLength(1);
  });

  it('signs out on the auth service, then goes to the login page', async () => {
    const auth = fakeAuth([200, 200]);
    const { session: s, left } = session(auth);
    await s.start();
    await s.signOut();
    expect(auth.calls[1]).toEqual({ url: `${AUTH}/auth/cookie-logout`, method: 'POST', credentials: 'include' });
    expect(left).toEqual([`${AUTH}/auth/login?next=${encodeURIComponent(HERE)}`]);
    await jest.advanceTimersByTimeAsync(1_000_000);
    expect(auth.calls).toHaveLength(2);
  });
});
