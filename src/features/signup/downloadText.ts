import { saveBlob } from '../../platform/saveBlob';

/** Saves `text` as a file through a temporary object URL (nothing is uploaded or stored). */
export function downloadText(fileName: string, text: string): void {
  saveBlob(new Blob([text], { type: 'text/plain;charset=utf-8' }), fileName);
}
