import { Controller, Get, Header, Inject } from '@nestjs/common';
import { SERVICE_VERSION } from '@svc/contracts';
import { Public, RawResponse } from './operation.decorator';
import { docsPage, openApiDocument } from './openapi';
import { OperationRegistry } from './operation-registry';

export const APP_TITLE = Symbol('APP_TITLE');

@Controller()
@Public()
@RawResponse()
export class OpenApiController {
  constructor(
    private readonly registry: OperationRegistry,
    @Inject(APP_TITLE) private readonly title: string,
  ) {}

  @Get('openapi.json')
  openapi(): object {
    return openApiDocument(this.title, SERVICE_VERSION, this.registry.all().map((o) => o.definition));
  }

  @Get('docs')
  @Header('Content-Type', 'text/html; charset=utf-8')
  docs(): string {
    return docsPage(this.title, this.registry.all().map((o) => o.definition));
  }
}
