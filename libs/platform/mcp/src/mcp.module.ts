import { DynamicModule, Module } from '@nestjs/common';
import { McpController, MCP_OPTIONS, McpOptions } from './mcp.controller';

@Module({})
export class McpModule {
  static forRoot(options: McpOptions): DynamicModule {
    return { module: McpModule, controllers: [McpController], providers: [{ provide: MCP_OPTIONS, useValue: options }] };
  }
}
