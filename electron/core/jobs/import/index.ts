// Import's public face: a list read from its file into the job's store (layout found, every row
// pre-checked, each address once), the address index that finds an address's id again, and an input's
// fingerprint. The writer thread and the chunk packing stay inside.
export { importList, keyCheck, loadAddressIndex } from './list-import.ts';
export { inputFingerprint } from './input-fingerprint.ts';
