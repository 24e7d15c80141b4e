/**
 * The Description and tags drawer (spec 000 section 5): Save is enabled only for the vault's
 * OWNER, while nothing is saving, and when the tags changed or the description is non-empty,
 * at most 300 characters and different from the original.
 */
import { VAULT_LIMITS } from '../protocol/vaults';

export interface MetadataDraft {
  isOwner: boolean;
  isSaving: boolean;
  originalDescription: string;
  description: string;
  originalTags: readonly string[];
  tags: readonly string[];
}

export function haveTagsChanged(original: readonly string[], tags: readonly string[]): boolean {
  return original.length !== tags.length || original.some((tag, i) => tag !== tags[i]);
}

export function canSaveMetadata(draft: MetadataDraft): boolean {
  if (!draft.isOwner || draft.isSaving) return false;
  const isDescriptionChanged =
    draft.description !== '' && draft.description.length <= VAULT_LIMITS.DESCRIPTION_MAX && draft.description !== draft.originalDescription;
  return haveTagsChanged(draft.originalTags, draft.tags) || isDescriptionChanged;
}
