/**
 * Each operation type described once (STYLE.md "Do this, not that" 9): the role it needs, whether
 * an archived vault accepts it, which of its fields are user texts (sealed in private vaults) and
 * what they bind to, and whether it hands out a key ring. Read by the server's checks
 * (OperationService, fieldRules), the crypto worker's seal and open (workers/crypto/vaultCrypto.ts),
 * and the client's judge of the vault's log (src/domain/vaultLog.ts). A type left out of
 * `OPERATION_RULES` fails to compile.
 */
import type { NotificationEvent, NotificationObjectType } from './members';
import type { Field, FieldName, FileVersion, OperationBody, OperationType } from './vaults';

/**
 * Who may author an operation, at that point of the vault's log:
 * - create: anyone (it makes the vault; its author becomes the first OWNER);
 * - own: an accepted OWNER;
 * - write: an accepted OWNER or CONTRIBUTOR;
 * - self: the member the operation's membership (objectId) belongs to, accepted or still invited.
 */
export type OperationAccess = 'create' | 'own' | 'write' | 'self';

/**
 * Where a user-text field sits: on the body (`property`, default the field's name) and bound to
 * the operation's object, or on the body's file version and bound to the version id (so a version's
 * MIME type and file key cannot be swapped onto another version).
 */
export interface FieldSlotRule {
  name: FieldName;
  at: 'body' | 'version';
  property?: string;
}

/**
 * How an operation touches the vault's key ring (DESIGN.md section 3):
 * - none;
 * - create: `ownerKeys`, the first ring (one key) sealed to the creator;
 * - share: `keys` (with `keyCount`), the whole current ring sealed to one member;
 * - rotate: `rotation`, a ring one key longer sealed to every remaining key holder.
 */
export type RingRule = 'none' | 'create' | 'share' | 'rotate';

/**
 * What the server tells the other accepted members when it accepts the operation (SYNC_SPEC R30):
 * - none: nothing (member operations write their own membership notifications);
 * - fixed: this event about this kind of object;
 * - node: by the node's kind (null: nobody is told for that kind);
 * - reaction: a memo reaction added or, when `isAdded` is false, removed.
 */
export type NotificationRule =
  | { kind: 'none' }
  | { kind: 'fixed'; event: NotificationEvent; object: NotificationObjectType }
  | { kind: 'node'; file: NotificationEvent; folder: NotificationEvent | null }
  | { kind: 'reaction'; added: NotificationEvent; removed: NotificationEvent };

export interface OperationRule {
  access: OperationAccess;
  /** Accepted while the vault is ARCHIVED: access can be given up or taken away, nothing added. */
  whenArchived: boolean;
  /** User texts in signing order of appearance (sealed in private vaults, clear in public ones). */
  fields: readonly FieldSlotRule[];
  ring: RingRule;
  notification: NotificationRule;
  /** Whether the timeline shows it as an item (R28: drafts and reactions never are). */
  isTimelineItem: boolean;
  /**
   * Accepted even when its bytes do not fit the owner's cloud storage (R62): it frees storage or
   * only gives access up or takes it away, which a full account must still be able to do.
   */
  isAlwaysStored?: true;
}

const body = (name: FieldName, property?: string): FieldSlotRule => (property ? { name, at: 'body', property } : { name, at: 'body' });
const VERSION_FIELDS: readonly FieldSlotRule[] = [
  { name: 'mimeType', at: 'version' },
  { name: 'fileKey', at: 'version' },
];

const NONE: NotificationRule = { kind: 'none' };
const fixed = (event: NotificationEvent, object: NotificationObjectType): NotificationRule => ({ kind: 'fixed', event, object });
// The spec has no folder deletion event: deleting a hidden folder tells nobody.
const node = (file: NotificationEvent, folder: NotificationEvent | null): NotificationRule => ({ kind: 'node', file, folder });

export const OPERATION_RULES = {
  'vault.create': { access: 'create', whenArchived: false, fields: [body('name'), body('description'), body('tags'), body('terms')], ring: 'create', notification: NONE, isTimelineItem: true },
  'vault.rename': { access: 'own', whenArchived: false, fields: [body('name')], ring: 'none', notification: fixed('VAULT_UPDATE', 'dataroom'), isTimelineItem: true },
  'vault.updateMetadata': { access: 'own', whenArchived: false, fields: [body('description'), body('tags')], ring: 'none', notification: fixed('VAULT_UPDATE_METADATA', 'dataroom'), isTimelineItem: true },
  'vault.archive': { access: 'own', whenArchived: true, fields: [], ring: 'none', notification: fixed('VAULT_ARCHIVE', 'dataroom'), isTimelineItem: true, isAlwaysStored: true },
  'vault.restore': { access: 'own', whenArchived: true, fields: [], ring: 'none', notification: fixed('VAULT_RESTORE', 'dataroom'), isTimelineItem: true },
  'vault.delete': { access: 'own', whenArchived: true, fields: [], ring: 'none', notification: fixed('VAULT_DELETE', 'dataroom'), isTimelineItem: true, isAlwaysStored: true },
  'folder.create': { access: 'write', whenArchived: false, fields: [body('name')], ring: 'none', notification: fixed('FOLDER_CREATE', 'folder'), isTimelineItem: true },
  'file.create': { access: 'write', whenArchived: false, fields: [body('name'), ...VERSION_FIELDS], ring: 'none', notification: fixed('STACK_CREATE', 'stack'), isTimelineItem: true },
  'file.addVersion': { access: 'write', whenArchived: false, fields: VERSION_FIELDS, ring: 'none', notification: fixed('STACK_UPLOAD_REVISION', 'stack'), isTimelineItem: true },
  'node.rename': { access: 'write', whenArchived: false, fields: [body('name')], ring: 'none', notification: node('STACK_UPDATE', 'FOLDER_UPDATE'), isTimelineItem: true },
  'node.move': { access: 'write', whenArchived: false, fields: [], ring: 'none', notification: node('STACK_MOVE', 'FOLDER_MOVE'), isTimelineItem: true },
  'node.hide': { access: 'write', whenArchived: false, fields: [], ring: 'none', notification: node('STACK_REVOKE', 'FOLDER_REVOKE'), isTimelineItem: true },
  'node.restore': { access: 'write', whenArchived: false, fields: [], ring: 'none', notification: node('STACK_RESTORE', 'FOLDER_RESTORE'), isTimelineItem: true },
  'node.delete': { access: 'write', whenArchived: false, fields: [], ring: 'none', notification: node('STACK_DELETE', null), isTimelineItem: true, isAlwaysStored: true },
  // The Yjs update of a note's draft, bound to the note (object id = file id).
  'note.draft': { access: 'write', whenArchived: false, fields: [body('draft', 'update')], ring: 'none', notification: NONE, isTimelineItem: false },
  // Members (spec 001 section 6): owners manage members; invitees and members act on their own
  // membership; the rotation a leave asked for is made by any writer.
  'member.invite': { access: 'own', whenArchived: false, fields: [], ring: 'share', notification: NONE, isTimelineItem: true },
  'member.confirm': { access: 'own', whenArchived: false, fields: [], ring: 'share', notification: NONE, isTimelineItem: true },
  'member.accept': { access: 'self', whenArchived: false, fields: [], ring: 'none', notification: NONE, isTimelineItem: true },
  'member.reject': { access: 'self', whenArchived: true, fields: [], ring: 'none', notification: NONE, isTimelineItem: true, isAlwaysStored: true },
  'member.changeRole': { access: 'own', whenArchived: false, fields: [], ring: 'none', notification: NONE, isTimelineItem: true },
  'member.revoke': { access: 'own', whenArchived: true, fields: [], ring: 'rotate', notification: NONE, isTimelineItem: true, isAlwaysStored: true },
  'member.leave': { access: 'self', whenArchived: true, fields: [], ring: 'none', notification: NONE, isTimelineItem: true, isAlwaysStored: true },
  'member.airdrop': { access: 'own', whenArchived: false, fields: [body('name')], ring: 'share', notification: NONE, isTimelineItem: true },
  'vault.rotateKeys': { access: 'write', whenArchived: true, fields: [], ring: 'rotate', notification: NONE, isTimelineItem: true },
  // Chat (spec 000 section 6): VIEWER and read-only members can neither post nor react.
  'memo.create': { access: 'write', whenArchived: false, fields: [body('message')], ring: 'none', notification: fixed('MEMO_CREATE', 'memo'), isTimelineItem: true },
  'memo.react': { access: 'write', whenArchived: false, fields: [body('reaction')], ring: 'none', notification: { kind: 'reaction', added: 'ADD_REACTION', removed: 'REMOVE_REACTION' }, isTimelineItem: false },
  // Atomic NFTs (spec 002 section 6): public permanent vaults only (checked by the server, R136);
  // their texts are clear, as every public vault's are. VIEWER cannot mint.
  'nft.mint': { access: 'write', whenArchived: false, fields: VERSION_FIELDS, ring: 'none', notification: NONE, isTimelineItem: false },
  'nft.collection': { access: 'write', whenArchived: false, fields: [], ring: 'none', notification: NONE, isTimelineItem: false },
} as const satisfies Record<OperationType, OperationRule>;

/** The rule of `type`. */
export function operationRule(type: OperationType): OperationRule {
  return OPERATION_RULES[type];
}

/** A field of an operation: its name, the object id its associated data binds, where it sits. */
export interface OperationFieldSlot {
  name: FieldName;
  objectId: string;
  holder: Record<string, unknown>;
  property: string;
}

/**
 * Every user-text field slot of an operation body, in the rule's order (the holder is the body or
 * its version, so a caller can read or replace the value: resealing). `objectId` is the
 * operation's object.
 */
export function operationFieldSlots(opBody: OperationBody, objectId: string): OperationFieldSlot[] {
  const slots: OperationFieldSlot[] = [];
  for (const rule of OPERATION_RULES[opBody.type].fields) {
    if (rule.at === 'version') {
      const version = (opBody as { version?: FileVersion }).version;
      if (version) slots.push({ name: rule.name, objectId: version.versionId, holder: version as unknown as Record<string, unknown>, property: rule.property ?? rule.name });
    } else {
      slots.push({ name: rule.name, objectId, holder: opBody as unknown as Record<string, unknown>, property: rule.property ?? rule.name });
    }
  }
  return slots;
}

/** The user-text fields an operation carries (present ones only), `fileKey` included. */
export function operationFieldValues(opBody: OperationBody, objectId = ''): Field[] {
  const values: Field[] = [];
  for (const slot of operationFieldSlots(opBody, objectId)) {
    const value = slot.holder[slot.property] as Field | undefined;
    if (value !== undefined) values.push(value);
  }
  return values;
}
