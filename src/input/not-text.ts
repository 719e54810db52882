// Names what a file is when it is not a text export at all, from its first (decompressed) bytes, so the
// user reads "an Excel workbook" or "a file of NUL bytes" instead of "no header row / wrong delimiter".

export interface NotText {
  /** What the file is, said after its name: `holds only NUL bytes (...)`. */
  what: string;
  hint: string;
}

/** Why `head` (the file's first bytes, `ended`: the whole file) cannot be a CSV or JSON-lines export, if it cannot. */
export function describeNotText(head: Uint8Array, ended: boolean): NotText | undefined {
  return nulBytes(head, ended) ?? zipArchive(head) ?? officeBinary(head) ?? pdf(head) ?? markup(head);
}

const SAVE_AS_CSV =
  'open it in Excel, LibreOffice Calc or Google Sheets and save it as CSV (Excel: File > Save As > "CSV UTF-8 ' +
  '(Comma delimited)"), or export CSV from the platform itself; then read that file';

/**
 * An XLSX, ODS or DOCX is a ZIP archive: the names of its parts (`xl/workbook.xml`) stand uncompressed in each
 * part's local header, so the first bytes tell a spreadsheet from other archives. Renamed `.csv`, a workbook
 * got "no header row / wrong delimiter", and `init` wrote an empty config for it (issue 24).
 */
function zipArchive(head: Uint8Array): NotText | undefined {
  if (!startsWith(head, [0x50, 0x4b, 0x03, 0x04])) return undefined;
  const names = zipEntryNames(head);
  if (names.some((name) => name.startsWith('xl/'))) {
    return { what: 'is an Excel workbook (.xlsx), not CSV or JSON-lines text', hint: SAVE_AS_CSV };
  }
  const text = Buffer.from(head.subarray(0, 200)).toString('latin1');
  if (text.includes('application/vnd.oasis.opendocument.spreadsheet')) {
    return { what: 'is an OpenDocument spreadsheet (.ods), not CSV or JSON-lines text', hint: SAVE_AS_CSV };
  }
  return {
    what: 'is a ZIP archive, not CSV or JSON-lines text',
    hint: 'unzip it (unzip -l lists what it holds) and read the export inside',
  };
}

/** The part names of the local headers in `head` (`PK\3\4`, name length at +26, name at +30). */
function zipEntryNames(head: Uint8Array): string[] {
  const bytes = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  const names: string[] = [];
  for (let at = bytes.indexOf('PK\x03\x04', 0, 'latin1'); at >= 0 && at + 30 <= bytes.length; ) {
    const length = bytes.readUInt16LE(at + 26);
    names.push(bytes.toString('latin1', at + 30, Math.min(at + 30 + length, bytes.length)));
    at = bytes.indexOf('PK\x03\x04', at + 30, 'latin1');
  }
  return names;
}

/** The OLE2 compound file of Excel 97-2003 (.xls), and of old Word and PowerPoint files. */
function officeBinary(head: Uint8Array): NotText | undefined {
  if (!startsWith(head, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return undefined;
  return {
    what: 'is an Excel 97-2003 workbook (.xls) or another Office file in the old binary format, not CSV or JSON-lines text',
    hint: SAVE_AS_CSV,
  };
}

function pdf(head: Uint8Array): NotText | undefined {
  if (!startsWith(head, [0x25, 0x50, 0x44, 0x46, 0x2d])) return undefined;
  return {
    what: 'is a PDF document, not CSV or JSON-lines text',
    hint: 'export the report as CSV from the platform instead',
  };
}

/** An HTML page saved under the export's name: a login, error or consent page a download script got instead. */
function markup(head: Uint8Array): NotText | undefined {
  const start = Buffer.from(head.subarray(0, 512))
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart()
    .toLowerCase();
  if (!start.startsWith('<!doctype html') && !start.startsWith('<html')) return undefined;
  return {
    what: 'is an HTML page, not CSV or JSON-lines text',
    hint: 'a login, error or consent page was probably saved instead of the export: open it in a browser to see which, and download the export again',
  };
}

function startsWith(head: Uint8Array, magic: readonly number[]): boolean {
  return head.length >= magic.length && magic.every((byte, i) => head[i] === byte);
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
