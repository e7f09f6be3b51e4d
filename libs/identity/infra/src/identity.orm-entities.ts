import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ schema: 'identity', name: 'organizations' })
export class OrganizationOrmEntity {
  @PrimaryColumn('text') id!: string;
  @Column('text') name!: string;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
}

@Entity({ schema: 'identity', name: 'users' })
export class UserOrmEntity {
  @PrimaryColumn('text') id!: string;
  @Column('text', { name: 'organization_id' }) organizationId!: string;
  @Column('text', { nullable: true }) email!: string | null;
  @Column('text') name!: string;
  @Column('text', { array: true }) roles!: string[];
  @Column('text') kind!: 'person' | 'service';
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
}

@Entity({ schema: 'identity', name: 'api_keys' })
export class ApiKeyOrmEntity {
  @PrimaryColumn('text') id!: string;
  @Column('text', { name: 'organization_id' }) organizationId!: string;
  @Column('text', { name: 'user_id' }) userId!: string;
  @Column('text') name!: string;
  @Column('text', { array: true }) roles!: string[];
  @Column('text', { name: 'lookup_id' }) lookupId!: string;
  @Column('text', { name: 'secret_hash' }) secretHash!: string;
  @Column('timestamptz', { name: 'expires_at', nullable: true }) expiresAt!: Date | null;
  @Column('timestamptz', { name: 'revoked_at', nullable: true }) revokedAt!: Date | null;
  @Column('timestamptz', { name: 'last_used_at', nullable: true }) lastUsedAt!: Date | null;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
}

@Entity({ schema: 'identity', name: 'signing_keys' })
export class SigningKeyOrmEntity {
  @PrimaryColumn('text') kid!: string;
  @Column('text') algorithm!: string;
  @Column('jsonb', { name: 'public_jwk' }) publicJwk!: Record<string, unknown>;
  @Column('text', { name: 'private_jwk_encrypted' }) privateJwkEncrypted!: string;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
  @Column('timestamptz', { name: 'retired_at', nullable: true }) retiredAt!: Date | null;
}

export const IDENTITY_ENTITIES = [OrganizationOrmEntity, UserOrmEntity, ApiKeyOrmEntity, SigningKeyOrmEntity];
