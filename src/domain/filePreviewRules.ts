/** What the stack viewer and the gallery may show of a decrypted file, and how (spec 000 section 4). */

export const PREVIEW_KINDS = ['image', 'pdf', 'audio', 'video', 'markdown', 'text', 'none'] as const;
export type PreviewKind = (typeof PREVIEW_KINDS)[number];

/** Files above this are not decrypted for a preview (the Download button still works). */
export const PREVIEW_MAX_BYTES = 200_000_000;
/** Text and markdown previews read only this much of the file. */
export const TEXT_PREVIEW_MAX_BYTES = 1_000_000;

/** Types a browser can decode in an <img>. SVG is left out: opened on its own it can run script. */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp']);
const IMAGE_EXT = /\.(png|jpe?g|gif|webp|avif|bmp)$/i;
const AUDIO_EXT = /\.(mp3|m4a|aac|ogg|oga|opus|wav|flac)$/i;
const VIDEO_EXT = /\.(mp4|m4v|webm|ogv|mov)$/i;
const TEXT_EXT = /\.(txt|text|log|csv|tsv|json|xml|ya?ml|toml|ini|conf)$/i;
const MARKDOWN_EXT = /\.(md|markdown)$/i;

/** Classifies by the (decrypted) MIME type, falling back to the name's extension. */
export function classifyPreview(mimeType: string, name: string): PreviewKind {
  const type = mimeType.toLowerCase().split(';')[0]!.trim();
  if (type === 'text/markdown' || MARKDOWN_EXT.test(name)) return 'markdown';
  if (IMAGE_TYPES.has(type) || (IMAGE_EXT.test(name) && !type.startsWith('image/svg'))) return 'image';
  if (type === 'application/pdf' || /\.pdf$/i.test(name)) return 'pdf';
  if (type.startsWith('audio/') || AUDIO_EXT.test(name)) return 'audio';
  if (type.startsWith('video/') || VIDEO_EXT.test(name)) return 'video';
  if (type === 'text/html' || type === 'image/svg+xml' || /\.(html?|svg|xhtml)$/i.test(name)) return 'text';
  if (type.startsWith('text/') || type === 'application/json' || TEXT_EXT.test(name)) return 'text';
  return 'none';
}

/**
 * The MIME type an object URL of this kind is given. The blob is always re-typed: an uploader
 * chooses the stored type, and a blob: URL with type text/html (in a frame, or opened in a tab)
 * would run the uploader's script in Cairn's origin.
 */
export function previewBlobType(kind: PreviewKind, mimeType: string): string {
  const type = mimeType.toLowerCase().split(';')[0]!.trim();
  switch (kind) {
    case 'image':
      return IMAGE_TYPES.has(type) ? type : 'image/png';
    case 'pdf':
      return 'application/pdf';
    case 'audio':
      return type.startsWith('audio/') ? type : 'audio/mpeg';
    case 'video':
      return type.startsWith('video/') ? type : 'video/mp4';
    default:
      return 'text/plain';
  }
}

/** Whether the gallery shows this file (images and videos). */
export function isGalleryKind(kind: PreviewKind): boolean {
  return kind === 'image' || kind === 'video';
}

/** Only http(s) and mailto links in rendered notes become links; the rest stay text. */
export function isSafeLinkHref(href: string | undefined | null): href is string {
  if (!href) return false;
  // Browsers drop tabs and newlines inside schemes ('java\tscript:'), so test the cleaned text.
  const cleaned = href.replace(/[\u0000-\u0020\u007f]/g, '').toLowerCase();
  return /^(https?:\/\/|mailto:)/.test(cleaned);
}

/** A selected version first, then the others newest first (spec 000 section 4, stack viewer). */
export function orderVersions<T extends { versionId: string }>(newestFirst: readonly T[], selectedId: string | undefined): T[] {
  const selected = newestFirst.find((v) => v.versionId === selectedId);
  return selected ? [selected, ...newestFirst.filter((v) => v !== selected)] : [...newestFirst];
}
