import { Injectable, OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { OPERATION_METADATA, OperationDefinition } from './operation.decorator';

export interface RegisteredOperation {
  definition: OperationDefinition;
  /** Calls the controller method as REST would, with a validated body, the principal and the instance access. */
  invoke(body: object, principal: unknown, access?: unknown): Promise<unknown>;
}

/** The operations this app serves, discovered from its controllers at boot (OpenAPI, MCP). */
@Injectable()
export class OperationRegistry implements OnModuleInit {
  private readonly operations = new Map<string, RegisteredOperation>();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  onModuleInit(): void {
    for (const wrapper of this.discovery.getControllers()) {
      const instance = wrapper.instance as Record<string, (...args: unknown[]) => unknown> | undefined;
      if (!instance) continue;
      for (const method of this.scanner.getAllMethodNames(Object.getPrototypeOf(instance))) {
        const definition = this.reflector.get<OperationDefinition | undefined>(OPERATION_METADATA, instance[method]);
        if (!definition) continue;
        this.operations.set(definition.name, {
          definition,
          invoke: async (body, principal, access) => instance[method].call(instance, body, principal, access),
        });
      }
    }
  }

  all(): RegisteredOperation[] {
    return [...this.operations.values()];
  }

  get(name: string): RegisteredOperation | undefined {
    return this.operations.get(name);
  }
}
