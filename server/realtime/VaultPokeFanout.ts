import { inBatches } from '../db/inBatches';
import { type Db, REMOVED_STATUSES } from '../services/vaultRows';
import type { SocketHub } from '../ws/SocketHub';
import type { PokeBus, VaultPoke } from './PokeBus';

/**
 * Hears pokes from the bus and sends `{type: 'poke', vaultId, seq}` to this process's sockets of
 * every member who may read the vault (docs/SYNC_SPEC.md R3). Pokes of one vault that arrive
 * together are coalesced into the highest seq, so a burst of operations costs one membership
 * lookup and one message per socket.
 */
export class VaultPokeFanout {
  private readonly pending = new Map<string, number>();
  private scheduled = false;
  private readonly unsubscribe: () => void;
  private draining: Promise<void> = Promise.resolve();

  constructor(
    bus: PokeBus,
    private readonly db: Db,
    private readonly hub: SocketHub,
    private readonly log: { warn(object: unknown, message?: string): void },
  ) {
    this.unsubscribe = bus.subscribe((poke) => this.hear(poke));
  }

  stop(): void {
    this.unsubscribe();
    this.pending.clear();
  }

  private hear(poke: VaultPoke): void {
    if (!this.hub.hasConnections()) return;
    this.pending.set(poke.vaultId, Math.max(poke.seq, this.pending.get(poke.vaultId) ?? 0));
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      const batch = [...this.pending];
      this.pending.clear();
      this.draining = this.draining.then(() => this.send(batch));
    });
  }

  private async send(batch: [string, number][]): Promise<void> {
    try {
      const rows = [];
      // A busy server gathers pokes of many vaults in one turn: bound each `in` list (server/db/inBatches.ts).
      for (const vaultIds of inBatches(batch.map(([vaultId]) => vaultId))) {
        const members = await this.db
          .selectFrom('memberships')
          .select(['vault_id', 'user_id'])
          .where('vault_id', 'in', vaultIds)
          // Removed members hear nothing more; an invitee (PENDING or INVITED) hears the vault from the invite on.
          .where('status', 'not in', REMOVED_STATUSES)
          .where('role', '!=', 'REVOKED')
          .execute();
        for (const member of members) rows.push(member);
      }
      const membersOf = new Map<string, string[]>();
      for (const row of rows) {
        const members = membersOf.get(row.vault_id);
        if (members) members.push(row.user_id);
        else membersOf.set(row.vault_id, [row.user_id]);
      }
      for (const [vaultId, seq] of batch) this.hub.sendToUsers(membersOf.get(vaultId) ?? [], { type: 'poke', vaultId, seq });
    } catch (error) {
      // Harmless for data: clients still pull on their own schedule.
      this.log.warn({ err: error }, 'pokes not delivered');
    }
  }
}
