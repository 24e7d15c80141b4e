import { describe, expect, it } from 'vitest';
import { CHUNK_TAMPERED_MESSAGE, DownloadError, NOT_OFFLINE_MESSAGE } from '../../sync/vaultActions';
import { downloadErrorText } from './runDownload';

describe('downloadErrorText', () => {
  it('says why a download failed: tampered, or offline and not kept here; anything else generically', () => {
    expect(downloadErrorText(new DownloadError('CHUNK_TAMPERED', CHUNK_TAMPERED_MESSAGE))).toBe(CHUNK_TAMPERED_MESSAGE);
    expect(downloadErrorText(new DownloadError('OFFLINE', NOT_OFFLINE_MESSAGE))).toBe(NOT_OFFLINE_MESSAGE);
    expect(downloadErrorText(new DownloadError('FAILED', 'internal detail'))).toBe('There was an error downloading the file.');
    expect(downloadErrorText(new Error('UNREACHABLE: Failed to fetch'))).toBe('There was an error downloading the file.');
  });
});
