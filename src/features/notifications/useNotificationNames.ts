import { useLiveQuery } from 'dexie-react-hooks';
import type { NotificationNames } from '../../domain/notificationRules';
import type { Notification } from '../../protocol/members';
import { getDb } from '../../storage/db';
import { useStoreAccount } from '../../storage/vaultStore';

/**
 * The names a notification's text uses, from this device's own data (the server sends ids only,
 * docs/SYNC_SPEC.md R30): the file's or folder's name from the vault projection, the author's
 * profile name from the vault's cached members (found by e-mail). Unknown names stay undefined.
 */
export function useNotificationNames(notifications: Notification[]): { of(notification: Notification): NotificationNames } {
  const accountId = useStoreAccount();
  const key = notifications.map((n) => `${n.id}:${n.objectId}`).join(',');
  const found = useLiveQuery(
    async () => {
      if (!accountId) return { nodes: new Map<string, string>(), authors: new Map<string, string>() };
      const db = getDb();
      const nodeIds = [...new Set(notifications.filter((n) => n.objectType === 'stack' || n.objectType === 'folder').map((n) => n.objectId))];
      const nodes = await db.nodes.bulkGet(nodeIds.map((id) => [accountId, id] as [string, string]));
      const vaultIds = [...new Set(notifications.flatMap((n) => (n.vaultId && n.fromEmail ? [n.vaultId] : [])))];
      const members = await db.members
        .where('[accountId+vaultId]')
        .anyOf(vaultIds.map((id) => [accountId, id]))
        .toArray();
      return {
        nodes: new Map(nodes.flatMap((node) => (node?.name ? [[node.id, node.name] as const] : []))),
        authors: new Map(members.flatMap((m) => (m.email && m.profileName ? [[m.email, m.profileName] as const] : []))),
      };
    },
    [accountId, key],
  );
  return {
    of: (notification) => ({
      objectName: found?.nodes.get(notification.objectId),
      authorName: notification.fromEmail ? found?.authors.get(notification.fromEmail) : undefined,
    }),
  };
}
