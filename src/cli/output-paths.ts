// Output paths are checked before anything is read or sent: a rejects file or a ledger that cannot be
// written once records are going out ended the run halfway, as an internal error (issue 13).
import { accessSync, constants, type Stats, statSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../errors.js';
import { isPostgresUrl } from '../ledger/paths.js';

function statOf(file: string): Stats | undefined {
  try {
    return statSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // ENOTDIR: a parent is a file; the walk up finds it and says so.
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

function isWritable(file: string, mode = constants.W_OK): boolean {
  try {
    accessSync(file, mode);
    return true;
  } catch {
    return false;
  }
}

/** Why a file at `file` could not be written, or undefined when it can. `create` folders are made on the way. */
function problemWith(file: string, createFolders: boolean): string | undefined {
  const stat = statOf(file);
  if (stat?.isDirectory()) return `${file} is a folder, not a file`;
  if (stat && !isWritable(file)) return `${file} is not writable`;
  let folder = path.dirname(file);
  if (!createFolders) {
    const found = statOf(folder);
    if (!found) return `the folder ${folder} does not exist`;
    if (!found.isDirectory()) return `${folder} is not a folder`;
  } else {
    // mkdir -p succeeds when the nearest existing ancestor is a folder we may write into.
    while (!statOf(folder) && path.dirname(folder) !== folder) folder = path.dirname(folder);
    if (!statOf(folder)?.isDirectory()) return `${folder} is a file, not a folder`;
  }
  if (!isWritable(folder, constants.W_OK | constants.X_OK)) return `the folder ${folder} is not writable`;
  return undefined;
}

/** The rejects file must be creatable in an existing folder (it is written only once a row fails). */
export function checkRejectsPath(file: string): void {
  const problem = problemWith(file, false);
  if (problem === undefined) return;
  throw new UsageError(`cannot write the rejects file ${file}: ${problem}`, {
    hint: 'create the folder, or give --rejects (or rejects in the config) a path in a writable folder',
  });
}

/** `--emit`: the records file must be writable before anything is read. */
export function checkEmitPath(file: string): void {
  const problem = problemWith(file, false);
  if (problem === undefined) return;
  throw new UsageError(`cannot write the --emit file ${file}: ${problem}`, {
    hint: 'give --emit a path in a writable folder',
  });
}

/**
 * The ledger's folder is created on first use: its nearest existing ancestor must be a writable folder.
 * `besideConfig`: the config file, when the ledger is the default beside it (no `state` anywhere).
 */
export function checkLedgerPath(file: string, besideConfig?: string): void {
  // A PostgreSQL ledger has no folder here: its URL is checked when the run connects.
  if (isPostgresUrl(file)) return;
  const problem = problemWith(file, true);
  if (problem === undefined) return;
  if (besideConfig !== undefined) {
    // A config in a read-only place (an image, /etc): the user never chose this ledger, so say where it
    // comes from and how to choose another.
    throw new UsageError(
      `cannot create the ledger ${file} beside the config file ${besideConfig}: ${problem}`,
      {
        hint: `with no state set, the ledger lives beside the config file: set state in ${besideConfig} (or --state, REVIMPORT_STATE) to a path in a writable folder, or a postgres:// URL`,
      },
    );
  }
  throw new UsageError(`cannot create the ledger ${file}: ${problem}`, {
    hint: 'give --state, REVIMPORT_STATE or state in the config a path in a writable folder',
  });
}

/** `push --report` and `revimport report --out`: the page must be writable before the run (or the read). */
export function checkReportPath(file: string, flag: string): void {
  const problem = problemWith(file, false);
  if (problem === undefined) return;
  throw new UsageError(`cannot write the report ${file}: ${problem}`, {
    hint: `give ${flag} a path in a writable folder`,
  });
}
