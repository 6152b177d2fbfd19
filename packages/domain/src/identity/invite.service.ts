import type { IdentityDependencies } from './identity.dependencies.js';
import type { InviteRow } from './identity.records.js';
import { newOpaqueToken, SecretPurpose } from './secrets.js';

/** An invite as listed by the operator CLI; the code itself is shown only when created. */
export interface InviteSummary {
  id: string;
  prefix: string;
  max_uses: number;
  uses: number;
  expires_at: string | null;
  revoked_at: string | null;
  created_at: string;
  live: boolean;
}

/** Invite codes for signup mode `invite` (`svc invites create|list|revoke`). */
export class InviteService {
  constructor(private readonly deps: Omit<IdentityDependencies, 'uow'>) {}

  /** Creates a code usable `maxUses` times until `expiresAt`; returns the code (shown once). */
  async create(
    maxUses: number,
    expiresInMs: number | null,
  ): Promise<{ code: string; invite: InviteSummary }> {
    const now = this.deps.clock.now();
    const code = newOpaqueToken(this.deps.random, 'inv_');
    const row: InviteRow = {
      id: this.deps.random.uuid(),
      codeHash: this.deps.keyedHash.mac(SecretPurpose.invite, code),
      prefix: code.slice(0, 10),
      maxUses,
      uses: 0,
      expiresAt: expiresInMs === null ? null : new Date(now.getTime() + expiresInMs),
      revokedAt: null,
      createdAt: now,
    };
    await this.deps.store.invites.create(row);
    return { code, invite: this.summaryOf(row, now) };
  }

  async list(): Promise<InviteSummary[]> {
    const now = this.deps.clock.now();
    return (await this.deps.store.invites.list()).map((row) => this.summaryOf(row, now));
  }

  /** Revokes a code given as the code itself or the invite id; false when no live invite matched. */
  async revoke(codeOrId: string): Promise<boolean> {
    const now = this.deps.clock.now();
    const byCode = await this.deps.store.invites.revoke(
      this.deps.keyedHash.mac(SecretPurpose.invite, codeOrId),
      now,
    );
    return byCode || (await this.deps.store.invites.revoke(codeOrId, now));
  }

  private summaryOf(row: InviteRow, now: Date): InviteSummary {
    return {
      id: row.id,
      prefix: row.prefix,
      max_uses: row.maxUses,
      uses: row.uses,
      expires_at: row.expiresAt?.toISOString() ?? null,
      revoked_at: row.revokedAt?.toISOString() ?? null,
      created_at: row.createdAt.toISOString(),
      live:
        row.revokedAt === null &&
        row.uses < row.maxUses &&
        (row.expiresAt === null || row.expiresAt.getTime() > now.getTime()),
    };
  }
}
