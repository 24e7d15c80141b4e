/**
 * The filter drawer's rules (spec 000 section 2, Vault room; section 9, time filters): Action,
 * Members, File type and Period. An empty choice does not filter. Pure.
 */
import { NOTE_MIME, type TimelineAction, type TimelineItem } from './timelineItems';
import { ACTION_FILTERS } from './timelineText';

export const PERIODS = [
  { value: '24h', label: 'Last 24 hours', ms: 24 * 3_600_000 },
  { value: '48h', label: 'Last 48 hours', ms: 48 * 3_600_000 },
  { value: '7d', label: 'Last 7 days', ms: 7 * 86_400_000 },
  { value: '30d', label: 'Last 30 days', ms: 30 * 86_400_000 },
] as const;
export type Period = (typeof PERIODS)[number]['value'];

export const FILE_TYPES = [
  { value: 'document', label: 'Documents' },
  { value: 'image', label: 'Images' },
  { value: 'video', label: 'Video' },
  { value: 'audio', label: 'Audio' },
  { value: 'note', label: 'Notes' },
  { value: 'other', label: 'Other' },
] as const;
export type FileTypeFilter = (typeof FILE_TYPES)[number]['value'];

export interface TimelineFilters {
  /** ACTION_FILTERS values. */
  actions: string[];
  /** Authors' public signing keys. */
  members: string[];
  fileTypes: FileTypeFilter[];
  period: Period | null;
}

export const NO_FILTERS: TimelineFilters = { actions: [], members: [], fileTypes: [], period: null };

export function countActiveFilters(filters: TimelineFilters): number {
  return filters.actions.length + filters.members.length + filters.fileTypes.length + (filters.period ? 1 : 0);
}

const DOCUMENT_TYPES = /^(application\/(pdf|msword|rtf|vnd\.|json|xml)|text\/)/;

/** The File type filter's category of a MIME type. */
export function fileTypeOf(mimeType: string): FileTypeFilter {
  if (mimeType === NOTE_MIME) return 'note';
  if (mimeType.startsWith('image/')) return 'image';
  if (mimeType.startsWith('video/')) return 'video';
  if (mimeType.startsWith('audio/')) return 'audio';
  if (DOCUMENT_TYPES.test(mimeType)) return 'document';
  return 'other';
}

/** The items that pass every chosen filter; a File type choice keeps file items only. */
export function filterItems(items: readonly TimelineItem[], filters: TimelineFilters, now: number): TimelineItem[] {
  const actions = new Set<TimelineAction>(ACTION_FILTERS.filter((f) => filters.actions.includes(f.value)).flatMap((f) => f.actions));
  const members = new Set(filters.members);
  const fileTypes = new Set(filters.fileTypes);
  const since = filters.period ? now - PERIODS.find((p) => p.value === filters.period)!.ms : null;
  return items.filter(
    (item) =>
      (actions.size === 0 || actions.has(item.action)) &&
      (members.size === 0 || members.has(item.authorKey)) &&
      (fileTypes.size === 0 || (item.nodeKind === 'file' && fileTypes.has(fileTypeOf(item.mimeType)))) &&
      (since === null || item.postedAt >= since),
  );
}
