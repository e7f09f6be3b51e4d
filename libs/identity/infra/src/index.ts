export * from './hmac-secret-hasher';
export * from './identity.authenticator';
export * from './identity.controllers';
export * from './identity.migration';
export * from './identity.module';
export * from './identity.orm-entities';
export * from './identity.repositories';
export * from './jose-token.service';
