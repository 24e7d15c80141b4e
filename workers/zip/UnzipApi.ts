/**
 * The unzip worker's contract ('Upload zip & unpack', spec 000 sections 2 and 8). The archive is
 * read from the picked File by slices (its central directory, then one entry at a time), and each
 * entry is inflated as a stream into a Blob, so neither the archive nor a whole entry is ever held
 * in the worker's memory. Files and Blobs cross back to the page by reference, not copied.
 */

/** One file unpacked from the archive, with its folders from the archive's root down. */
export interface UnpackedFile {
  path: string[];
  file: File;
}

/** An entry that could not be unpacked: its name in the archive and a sentence for the user. */
export interface UnpackFailure {
  name: string;
  message: string;
}

export interface UnpackResult {
  files: UnpackedFile[];
  failures: UnpackFailure[];
  /** Folders of the archive that hold no unpacked file, from its root down, to create as they are. */
  emptyFolders: string[][];
}

export interface UnzipApi {
  /**
   * Unpacks every file entry, skipping __MACOSX and dot entries; directory entries count only as
   * empty folders. An entry that is encrypted, damaged (CRC-32 mismatch, bad deflate data), uses
   * an unknown method or has a name planZipEntry refuses (zip slip, a name the app cannot hold)
   * becomes a failure and the others go on. Rejects (Error('UNREADABLE_ZIP')) only when the
   * archive itself cannot be read. `onProgress` hears (entries handled, entries in the archive).
   */
  unpack(zip: Blob, onProgress?: (done: number, total: number) => void): Promise<UnpackResult>;
}
