/** Transpiles src/ledger and its imports into `outDir`; returns the path of ledger/ledger.js there. */
export function compileLedger(outDir: string): string;
