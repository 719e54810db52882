// Names what a file is when it is not a text export at all, from its first (decompressed) bytes, so the
// user reads "a file of NUL bytes" instead of "no header row" about a preallocated or zeroed file.

export interface NotText {
  /** What the file is, said after its name: `holds only NUL bytes (...)`. */
  what: string;
  hint: string;
}

/** Why `head` (the file's first bytes, `ended`: the whole file) cannot be a CSV or JSON-lines export, if it cannot. */
export function describeNotText(head: Uint8Array, ended: boolean): NotText | undefined {
  return nulBytes(head, ended);
}

/**
 * Only NUL bytes: a sparse or preallocated file, a copy cut short by a full disk, `/dev/zero`. Text in any
 * encoding has characters that are not NUL; reading on would look for a header in one endless blank row.
 */
function nulBytes(head: Uint8Array, ended: boolean): NotText | undefined {
  if (head.length === 0 || head.some((byte) => byte !== 0)) return undefined;
  return {
    what: ended
      ? `holds only NUL bytes (all ${head.length} of them are 0x00): it is not a text export`
      : `its first ${head.length} bytes are all NUL (0x00): it is not a text export`,
    hint: 'a preallocated or sparse file, or a copy cut short (a full disk, an interrupted download): export or copy the file again',
  };
}
