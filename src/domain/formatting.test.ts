import { describe, expect, it } from 'vitest';
import { formatBytes, formatDate, formatDateTime, formatFileType } from './formatting';

describe('formatting', () => {
  it('formats decimal sizes', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(999)).toBe('999 B');
    expect(formatBytes(1500)).toBe('1.5 KB');
    expect(formatBytes(1_000_000_000)).toBe('1 GB');
    expect(formatBytes(123_456_789)).toBe('123 MB');
  });
  it('formats dates as DD/MM/YYYY [HH:mm:ss]', () => {
    const t = new Date(2024, 0, 5, 7, 8, 9).getTime();
    expect(formatDate(t)).toBe('05/01/2024');
    expect(formatDateTime(t)).toBe('05/01/2024 07:08:09');
  });
  it('labels file types', () => {
    expect(formatFileType('image/png', 'a.png')).toBe('PNG');
    expect(formatFileType('application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'a.docx')).toBe('DOCX');
    expect(formatFileType('text/plain', 'notes.txt')).toBe('TXT');
    expect(formatFileType('image/jpeg', 'photo')).toBe('JPG');
    expect(formatFileType('', 'notes.md')).toBe('MD');
    expect(formatFileType('', 'README')).toBe('File');
  });
  it('labels a type by the extension a person knows, never by a MIME subtype such as PLAIN', () => {
    // A renamed text file: the name decides, whatever the stored type.
    expect(formatFileType('text/plain', 'minutes.txt')).toBe('TXT');
    expect(formatFileType('text/plain', 'photo.png')).toBe('PNG');
    expect(formatFileType('text/plain', 'minutes')).toBe('TXT');
    expect(formatFileType('text/plain; charset=utf-8', 'minutes')).toBe('TXT');
    expect(formatFileType('text/markdown', 'Meeting')).toBe('MD');
    expect(formatFileType('image/svg+xml', 'logo')).toBe('SVG');
  });
});
