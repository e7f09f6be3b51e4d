/**
 * The identity context's public surface: its Nest module and what the composition needs to open the
 * database (migrations, and the entity classes TypeORM maps, as one list). Repositories, ORM rows,
 * controllers and adapters stay inside.
 */
export { IdentityModule } from './identity.module';
export { CreateIdentitySchema1763700000100 } from './identity.migration';
export { AddInteractiveAuth1763700000800 } from './interactive-auth.migration';
export { IDENTITY_ENTITIES } from './identity.orm-entities';
