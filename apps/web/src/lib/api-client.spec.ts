/** @jest-environment node */
import { sessionFetch, unwrap } from './api-client';
import { ApiError } from './api-error';
import { Renewal, Session } from './session';

/** A session whose renewals answer as scripted, recording whether it ended. */
function fakeSession(renewal: Renewal) {
  const state = { renewals: 0, ended: false };
  const session = { renew: async () => (state.renewals++, renewal), end: () => void (state.ended = true) } as unknown as Session;
  return { state, session };
}

describe('sessionFetch', () => {
  const original = globalThis.fetch;
  let statuses: number[];
  let seen: string[];
  beforeEach(() => {
    seen = [];
    globalThis.fetch = (async (request: Request) => {
      seen.push(`${request.method} ${await request.text()}`);
      return new Response('{}', { status: statuses.shift() ?? 200 });
    }) as typeof fetch;
  });
  afterEach(() => (globalThis.fetch = original));
  const call = (session: Session) => sessionFetch(session)(new Request('https://audit.example.com/audit/dashboard/get-my-dashboard', { method: 'POST', body: '{"a":1}' }));

  it('passes answers through and renews nothing while the cookie is valid', async () => {
    statuses = [200];
    const { state, session } = fakeSession({ kind: 'ended' });
    expect((await call(session)).status).toBe(200);
    expect(state).toEqual({ renewals: 0, ended: false });
  });

  it('renews the cookie once on a 401 and sends the same request again', async () => {
    statuses = [401, 200];
    const { state, session } = fakeSession({ kind: 'renewed', expiresInSeconds: 900, sessionExpiresAt: new Date() });
    expect((await call(session)).status).toBe(200);
    expect(seen).toEqual(['POST {"a":1}', 'POST {"a":1}']);
    expect(state).toEqual({ renewals: 1, ended: false });
  });

  it('ends the session when the renewal is refused or the request is refused again', async () => {
    statuses = [401];
    const refused = fakeSession({ kind: 'ended' });
    expect((await call(refused.session)).status).toBe(401);
    expect(refused.state.ended).toBe(true);

    statuses = [401, 401];
    const again = fakeSession({ kind: 'renewed', expiresInSeconds: 900, sessionExpiresAt: new Date() });
    expect((await call(again.session)).status).toBe(401);
    expect(again.state.ended).toBe(true);
  });
});

describe('unwrap', () => {
  it('gives the response of a success and the service error, with its code and hint, of a failure', async () => {
    await expect(unwrap(Promise.resolve({ data: { response: [1] }, response: new Response() }))).resolves.toEqual([1]);
    const failure = unwrap(Promise.resolve({ error: { detail: 'No such conflict.', code: 'CONFLICTS.NOT_FOUND', status: 404, hint: 'List the conflicts.', request_id: 'r1' }, response: new Response(null, { status: 404 }) }));
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({ status: 404, code: 'CONFLICTS.NOT_FOUND', message: 'No such conflict.', hint: 'List the conflicts.', requestId: 'r1' });
    await expect(unwrap(Promise.reject(new TypeError('fetch failed')))).rejects.toMatchObject({ status: 0, code: 'NETWORK.UNREACHABLE' });
  });
});
