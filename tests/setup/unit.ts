// A fresh in-memory IndexedDB for every test file; tests that need one per test call
// `resetIndexedDb()` from tests/setup/indexedDb.ts.
import 'fake-indexeddb/auto';
