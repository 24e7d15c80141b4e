/** Display formats for sizes and dates (spec 000: DD/MM/YYYY dates, decimal byte units). */

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];

/** Decimal units (1 KB = 1000 B), as the spec's storage figures use. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 B';
  const exponent = Math.min(Math.floor(Math.log10(bytes) / 3), UNITS.length - 1);
  const value = bytes / 1000 ** exponent;
  const digits = exponent === 0 || value >= 100 ? 0 : value >= 10 ? 1 : 2;
  return `${Number(value.toFixed(digits))} ${UNITS[exponent]}`;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** DD/MM/YYYY in local time. */
export function formatDate(timestamp: number): string {
  const d = new Date(timestamp);
  return `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()}`;
}

/** DD/MM/YYYY HH:mm:ss in local time. */
export function formatDateTime(timestamp: number): string {
  const d = new Date(timestamp);
  return `${formatDate(timestamp)} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** Subtypes whose usual extension differs from their name: 'text/plain' is a TXT file, never 'PLAIN'. */
const SUBTYPE_EXTENSIONS: Record<string, string> = { plain: 'TXT', markdown: 'MD', 'x-markdown': 'MD', jpeg: 'JPG', 'svg+xml': 'SVG', quicktime: 'MOV', mpeg: 'MP3' };

/**
 * A short type label, the one the row, the info drawer and the public pages all show: the name's
 * extension when it has one ('report.pdf' -> 'PDF'), which is what people recognise and what a
 * rename changes; otherwise the extension the MIME type usually has ('text/plain' -> 'TXT',
 * 'image/png' -> 'PNG'); otherwise 'File'.
 */
export function formatFileType(mimeType: string, name: string): string {
  const dot = name.lastIndexOf('.');
  if (dot > 0 && dot < name.length - 1) return name.slice(dot + 1).toUpperCase().slice(0, 12);
  const sub = mimeType.toLowerCase().split(';')[0]!.trim().split('/')[1];
  if (!sub || sub === 'octet-stream') return 'File';
  return SUBTYPE_EXTENSIONS[sub] ?? (sub.split(/[.+-]/).pop() ?? sub).toUpperCase().slice(0, 12);
}
