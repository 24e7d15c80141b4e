/// <reference path="./pdfjsWorker.d.ts" />
// pdfjs's parser in a worker of its own, started by the thumbnail worker for one PDF and ended
// after it (loadPdfjs.ts): importing it is all it takes, pdfjs then answers on this worker's port.
import 'pdfjs-dist/legacy/build/pdf.worker.mjs';
