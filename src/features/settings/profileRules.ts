/** Profile form rules (spec 001 section 5). Pure. */

/** Photo crop zoom: 1 to 10 in steps of 0.1. */
export const PHOTO_ZOOM = { min: 1, max: 10, step: 0.1 } as const;
/** The saved photo is a square JPEG of this many pixels a side. */
export const PHOTO_SIZE_PX = 256;
export const PHOTO_JPEG_QUALITY = 0.9;

export interface ProfileFormState {
  name: string;
  savedName: string | null;
  isPhotoChanged: boolean;
}

export function isNameChanged({ name, savedName }: ProfileFormState): boolean {
  const trimmed = name.trim();
  return trimmed.length > 0 && trimmed !== (savedName ?? '').trim();
}

/** Save needs a non-empty changed name or a changed photo. */
export function canSaveProfile(state: ProfileFormState): boolean {
  return isNameChanged(state) || state.isPhotoChanged;
}
