/** Tunables of the identity context, provided from validated configuration by the infra module. */
export class IdentitySettings {
  constructor(
    /** How long an authenticated API key is trusted before it is re-read (revocation delay, ≤ 60 s). */
    readonly apiKeyCacheSeconds: number,
    readonly exchangeTokenLifetimeSeconds = 900,
  ) {}
}
