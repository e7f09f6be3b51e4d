export * from './mcp.controller';
export * from './mcp.module';
