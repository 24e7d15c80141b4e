/**
 * Per-category usage (spec 000 section 2, Storage page: documents, photos, video, audio, other,
 * free). Computed on the device: a private vault's MIME types are sealed, so only the device
 * knows them. Counted over every version in the vaults the user owns (uploads are charged to the
 * owner), split by the vault's storage kind.
 */
import type { VaultRecord, VersionRecord } from '../../storage/vaultRecords';

export type UsageCategory = 'documents' | 'photos' | 'video' | 'audio' | 'other';
export const USAGE_CATEGORIES: readonly UsageCategory[] = ['documents', 'photos', 'video', 'audio', 'other'];

export const CATEGORY_LABELS: Record<UsageCategory | 'free', string> = {
  documents: 'Documents',
  photos: 'Photos',
  video: 'Video',
  audio: 'Audio',
  other: 'Other',
  free: 'Free',
};

const DOCUMENT_TYPES = [
  /^text\//,
  /^application\/pdf$/,
  /^application\/(msword|rtf|json|xml)$/,
  /^application\/vnd\.(openxmlformats-officedocument|ms-(excel|powerpoint)|oasis\.opendocument)/,
  /^application\/epub\+zip$/,
];

export function categoryOf(mimeType: string): UsageCategory {
  const type = mimeType.toLowerCase().split(';')[0]!.trim();
  if (type.startsWith('image/')) return 'photos';
  if (type.startsWith('video/')) return 'video';
  if (type.startsWith('audio/')) return 'audio';
  if (DOCUMENT_TYPES.some((pattern) => pattern.test(type))) return 'documents';
  return 'other';
}

export type CategoryUsage = Record<UsageCategory, number>;

export function emptyUsage(): CategoryUsage {
  return { documents: 0, photos: 0, video: 0, audio: 0, other: 0 };
}

/**
 * Bytes per category for permanent and for cloud vaults owned by the user. `records`: the bytes of
 * the vaults' own records the server counts besides files (operation logs in cloud storage,
 * history runs in permanent storage; GET /storage), which are Other.
 */
export function categoryUsage(
  vaults: readonly Pick<VaultRecord, 'vaultId' | 'isCloud' | 'role'>[],
  versions: readonly Pick<VersionRecord, 'vaultId' | 'mimeTypeText' | 'storedSize'>[],
  records: { cloud: number; permanent: number } = { cloud: 0, permanent: 0 },
): { permanent: CategoryUsage; cloud: CategoryUsage } {
  const kindOf = new Map<string, 'permanent' | 'cloud'>();
  for (const vault of vaults) if (vault.role === 'OWNER') kindOf.set(vault.vaultId, vault.isCloud ? 'cloud' : 'permanent');
  const usage = { permanent: emptyUsage(), cloud: emptyUsage() };
  usage.cloud.other += records.cloud;
  usage.permanent.other += records.permanent;
  for (const version of versions) {
    const kind = kindOf.get(version.vaultId);
    // Stored bytes (ciphertext with its tags), what the allowance on the cards counts.
    if (kind) usage[kind][categoryOf(version.mimeTypeText)] += version.storedSize;
  }
  return usage;
}
