// pdfjs ships no types for its worker code; the thumbnail worker only hands it back to pdfjs.
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}
