import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { detectEncoding, normalizeEncoding, toUtf8, Windows1252Decoder } from '../../src/input/encoding.js';
import { collect } from './helpers.js';

async function* chunksOf(bytes: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

const decodeAll = async (bytes: Buffer, encoding: Parameters<typeof toUtf8>[1], size: number) =>
  Buffer.concat(await collect(toUtf8(chunksOf(bytes, size), encoding))).toString('utf8');

describe('detectEncoding', () => {
  it.each([
    ['UTF-8 BOM', Buffer.from('\ufeffa,b', 'utf8'), 'utf-8', false],
    ['UTF-16LE BOM', Buffer.from('\ufeffa,b', 'utf16le'), 'utf-16le', false],
    ['UTF-16BE BOM', Buffer.from('\ufeffa,b', 'utf16le').swap16(), 'utf-16be', false],
    ['UTF-16LE without BOM', Buffer.from('Campaign\tCost\n', 'utf16le'), 'utf-16le', false],
    ['UTF-16BE without BOM', Buffer.from('Campaign\tCost\n', 'utf16le').swap16(), 'utf-16be', false],
    ['plain ASCII', Buffer.from('a,b\n1,2\n'), 'utf-8', false],
    ['UTF-8 umlauts', Buffer.from('Währung,€\n'), 'utf-8', false],
    [
      'windows-1252 bytes',
      Buffer.from([0x57, 0xe4, 0x68, 0x72, 0x75, 0x6e, 0x67, 0x2c, 0x80]),
      'windows-1252',
      true,
    ],
  ])('%s', (_name, head, encoding, guessed) => {
    expect(detectEncoding(head, true)).toEqual({ encoding, guessed });
  });

  it('accepts a UTF-8 character cut by the end of the sample unless the sample is the whole file', () => {
    const cut = Buffer.from('abc€').subarray(0, 5);
    expect(detectEncoding(cut, false).encoding).toBe('utf-8');
    expect(detectEncoding(cut, true).encoding).toBe('windows-1252');
  });
});

describe('normalizeEncoding', () => {
  it.each([
    ['UTF8', 'utf-8'],
    ['utf16le', 'utf-16le'],
    ['UTF-16BE', 'utf-16be'],
    ['latin1', 'windows-1252'],
    ['cp1252', 'windows-1252'],
  ])('%s → %s', (name, expected) => {
    expect(normalizeEncoding(name, 'f.csv')).toBe(expected);
  });

  it('rejects an unknown encoding with a ConfigError naming the file', () => {
    expect(() => normalizeEncoding('ebcdic', 'f.csv')).toThrow(
      new ConfigError(
        'f.csv: unsupported encoding "ebcdic" (use utf-8, utf-16le, utf-16be, windows-1252 or latin1)',
      ),
    );
  });
});

describe('toUtf8', () => {
  it('decodes windows-1252 including the 0x80-0x9F range (not as Latin-1 control characters)', async () => {
    const bytes = Buffer.from([
      0x57, 0xe4, 0x68, 0x72, 0x75, 0x6e, 0x67, 0x3b, 0x80, 0x3b, 0xe9, 0x3b, 0x84, 0x93, 0x94, 0x3b, 0xdf,
    ]);
    expect(await decodeAll(bytes, 'windows-1252', 3)).toBe('Währung;€;é;„“”;ß');
  });

  it('decodes every windows-1252 byte like the WHATWG table for a sample of the special range', () => {
    const decoder = new Windows1252Decoder();
    expect(decoder.decode(Uint8Array.of(0x80, 0x82, 0x83, 0x92, 0x9f, 0x81, 0xa0, 0xff))).toBe(
      '€‚ƒ’Ÿ\u0081\u00a0ÿ',
    );
  });

  it.each([1, 2, 3, 5])('keeps a UTF-16LE surrogate pair whole across chunks of %i bytes', async (size) => {
    const bytes = Buffer.from('\ufeffCampaign 😀\tÉté\r\n', 'utf16le');
    expect(await decodeAll(bytes, 'utf-16le', size)).toBe('Campaign 😀\tÉté\r\n');
  });

  it.each([1, 3])('decodes UTF-16BE in chunks of %i bytes', async (size) => {
    const bytes = Buffer.from('\ufeff😀 x', 'utf16le').swap16();
    expect(await decodeAll(bytes, 'utf-16be', size)).toBe('😀 x');
  });

  it('strips a UTF-8 BOM from the first chunk and passes UTF-8 through unchanged', async () => {
    // readRows always hands over a peeked head of at least 64 KiB (or the whole file) first.
    expect(await decodeAll(Buffer.from('\ufeffa,€\n\ufeff', 'utf8'), 'utf-8', 4)).toBe('a,€\n\ufeff');
  });
});

describe('toUtf8 on UTF-8 input', () => {
  const offsets = async (bytes: Buffer, size: number) => {
    const seen: number[] = [];
    const out = Buffer.concat(await collect(toUtf8(chunksOf(bytes, size), 'utf-8', (o) => seen.push(o))));
    return { seen, same: out.equals(bytes) };
  };

  it('reports invalid UTF-8 beyond the detection sample once, with its offset (found in review)', async () => {
    const bytes = Buffer.concat([
      Buffer.from('a,b\n'.repeat(20_000)),
      Buffer.from([0x4d, 0xfc, 0x6c]),
      Buffer.from('\n'),
    ]);
    expect(await offsets(bytes, 4096)).toEqual({ seen: [Math.floor(80_000 / 4096) * 4096], same: true });
  });

  it('does not report characters split across chunks', async () => {
    const bytes = Buffer.from('é😀€,ü\n'.repeat(5000));
    for (const size of [1, 2, 3, 5, 4096]) expect((await offsets(bytes, size)).seen).toEqual([]);
  });

  it('reports a file that ends inside a character', async () => {
    expect((await offsets(Buffer.from([0x61, 0xe2, 0x82]), 2)).seen).toEqual([1]);
  });
});
