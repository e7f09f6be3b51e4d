import { Body, Controller, Global, INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DomainError, Principal } from '@svc/kernel';
import { IsString } from 'class-validator';
import { json } from 'express';
import request from 'supertest';
import { Authenticator, InstanceAuthenticator } from './access.ports';
import { READINESS_CHECKS } from './health.controller';
import { HttpPlatformModule } from './http-platform.module';
import { DeclareOperation } from './operation.decorator';
import { ResourceServerOptions } from './resource-server';
import { noBodyAsEmptyObject } from './validation';

/**
 * The platform's HTTP conventions on a real Express 5 stack (body-parser 2 leaves `req.body`
 * undefined on a POST without a body), with one instance-API route and one Bearer route.
 */
class NoFieldsInput {}
class QueryInput {
  @IsString()
  query!: string;
}

const principal = { organizationId: 'org_1', userId: 'usr_1', roles: ['ADMIN'], credential: { kind: 'instance_api_key', id: 'key_1' }, instanceId: 'ki_1' } as Principal;

@Controller()
class ProbeController {
  @DeclareOperation({ name: 'probe_instance_count', path: '/api/probe/count', description: 'probe', input: NoFieldsInput, output: { type: 'integer' }, permission: 'read', mcp: false, surface: 'instance' })
  count(@Body() _body: NoFieldsInput) {
    return 7;
  }

  @DeclareOperation({ name: 'probe_instance_query', path: '/api/probe/query', description: 'probe', input: QueryInput, output: { type: 'string' }, permission: 'read', mcp: false, surface: 'instance' })
  query(@Body() body: QueryInput) {
    return body.query;
  }

  @DeclareOperation({ name: 'probe_resource', path: '/retrieval/probe', description: 'probe', input: NoFieldsInput, output: { const: true }, permission: 'read', mcp: false, surface: 'resource' })
  resource(@Body() _body: NoFieldsInput) {
    return true;
  }
}

@Global()
@Module({
  providers: [
    { provide: Authenticator, useValue: { authenticate: async () => Promise.reject(DomainError.unauthenticated('AUTH.INVALID_TOKEN', 'The access token is invalid or expired.')) } },
    {
      provide: InstanceAuthenticator,
      useValue: {
        authenticate: async (instanceId?: string, apiKey?: string) => {
          if (instanceId === 'ki_1' && apiKey === 'good') return principal;
          throw DomainError.unauthenticated('AUTH.INVALID_INSTANCE_KEY', 'Send valid instance-id and api-key headers.');
        },
      },
    },
    { provide: READINESS_CHECKS, useValue: [] },
  ],
  exports: [Authenticator, InstanceAuthenticator, READINESS_CHECKS],
})
class FakeAccessModule {}

describe('HttpPlatformModule over HTTP', () => {
  let app: INestApplication;

  beforeAll(async () => {
    @Module({
      imports: [
        FakeAccessModule,
        HttpPlatformModule.forRoot({ title: 'probe', allowedOrigins: [], resourceServer: new ResourceServerOptions('retrieval', 'https://retrieval.example.com', 'https://auth.example.com') }),
      ],
      controllers: [ProbeController],
    })
    class ProbeAppModule {}
    app = await NestFactory.create(ProbeAppModule, { bodyParser: false, logger: false, abortOnError: false });
    app.use(json({ strict: false, type: ['application/json', 'application/*+json'] }));
    app.use(noBodyAsEmptyObject);
    await app.init();
  });

  afterAll(async () => {
    await app?.close();
  });

  const instanceHeaders = { 'instance-id': 'ki_1', 'api-key': 'good' };

  it('answers a POST without a body on an operation without fields', async () => {
    const res = await request(app.getHttpServer()).post('/api/probe/count').set(instanceHeaders);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ response: 7 });
  });

  it('refuses a body that is not JSON (415) instead of reading it as {} or as form fields (no filter, no paging dropped)', async () => {
    // What fetch sends for a string body without a Content-Type: text/plain.
    const text = await request(app.getHttpServer()).post('/api/probe/count').set({ ...instanceHeaders, 'content-type': 'text/plain' }).send('{"state":"INDEXED"}');
    expect(text.status).toBe(415);
    expect(text.body).toMatchObject({ code: 'REQUEST.UNSUPPORTED_MEDIA_TYPE', detail: expect.stringContaining('text/plain') });
    const form = await request(app.getHttpServer()).post('/api/probe/count').set({ ...instanceHeaders, 'content-type': 'application/x-www-form-urlencoded' }).send('state=INDEXED');
    expect(form.status).toBe(415);
    // JSON in UTF-16 (body-parser would decode it): refused, JSON is UTF-8.
    const utf16 = await request(app.getHttpServer()).post('/api/probe/count').set({ ...instanceHeaders, 'content-type': 'application/json; charset=utf-16' }).serialize((body) => body).send(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{}', 'utf16le')]));
    expect(utf16.status).toBe(415);
    expect(utf16.body).toMatchObject({ code: 'REQUEST.UNSUPPORTED_ENCODING' });
    const utf8 = await request(app.getHttpServer()).post('/api/probe/count').set({ ...instanceHeaders, 'content-type': 'application/json; charset=UTF-8' }).send('{}');
    expect(utf8.status).toBe(200);
    const chunked = await request(app.getHttpServer()).post('/api/probe/count').set({ ...instanceHeaders, 'content-type': 'application/octet-stream', 'transfer-encoding': 'chunked' }).send('x');
    // Transfer-Encoding together with the Content-Length supertest adds: Node itself refuses it (400).
    expect(chunked.status).toBe(400);
    // Before any credential is looked at: the refusal says nothing about the caller.
    const anonymous = await request(app.getHttpServer()).post('/api/probe/count').set({ 'content-type': 'text/plain' }).send('x');
    expect(anonymous.status).toBe(415);
  });

  it('names the missing field of a POST without a body, and still refuses JSON null', async () => {
    const missing = await request(app.getHttpServer()).post('/api/probe/query').set(instanceHeaders);
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: 'REQUEST.VALIDATION_FAILED', errors: [expect.objectContaining({ field: 'query' })] });
    const nullBody = await request(app.getHttpServer()).post('/api/probe/count').set({ ...instanceHeaders, 'content-type': 'application/json' }).send('null');
    expect(nullBody.status).toBe(400);
    expect(nullBody.body).toMatchObject({ code: 'REQUEST.BODY_NOT_OBJECT' });
  });

  it('challenges for an instance key, never a Bearer token, with a 401 of the instance API', async () => {
    for (const headers of [{}, { 'instance-id': 'ki_1', 'api-key': 'bad' }, { authorization: 'Bearer some-token' }]) {
      const res = await request(app.getHttpServer()).post('/api/probe/count').set(headers).send({});
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe('InstanceKey realm="instance API", headers="instance-id api-key"');
    }
  });

  it('keeps the Bearer challenge with a 401 of the Bearer REST surface', async () => {
    const res = await request(app.getHttpServer()).post('/retrieval/probe').send({});
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer resource_metadata="https://retrieval.example.com/.well-known/oauth-protected-resource"');
    const token = await request(app.getHttpServer()).post('/retrieval/probe').set('authorization', 'Bearer expired').send({});
    expect(token.headers['www-authenticate']).toBe('Bearer error="invalid_token", resource_metadata="https://retrieval.example.com/.well-known/oauth-protected-resource"');
  });
});
