/** Saves `text` as a file through a temporary object URL (nothing is uploaded or stored). */
export function downloadText(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoke after the click has been handled, so the browser has started the download.
  window.setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
