// A PNG decoded with node:zlib (8-bit RGB or RGBA, not interlaced: what chromium's --screenshot writes), so a
// test can look at a screenshot's content (which colours, where) instead of comparing it pixel by pixel.
import { inflateSync } from 'node:zlib';

export interface Image {
  width: number;
  height: number;
  /** RGB of the pixel at (x, y). */
  rgb(x: number, y: number): [number, number, number];
}

export function decodePng(png: Buffer): Image {
  if (png.subarray(0, 8).toString('hex') !== '89504e470d0a1a0a') throw new Error('not a PNG');
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Buffer[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const body = png.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, colour, , , interlace] = body.subarray(8, 13);
      channels = colour === 6 ? 4 : colour === 2 ? 3 : 0;
      if (depth !== 8 || channels === 0 || interlace !== 0)
        throw new Error(`unsupported PNG (depth ${depth}, colour ${colour})`);
    } else if (type === 'IDAT') data.push(body);
    at += 12 + length;
  }
  const pixels = unfilter(inflateSync(Buffer.concat(data)), width, height, channels);
  return {
    width,
    height,
    rgb: (x, y) => {
      const i = (y * width + x) * channels;
      return [pixels[i]!, pixels[i + 1]!, pixels[i + 2]!];
    },
  };
}

/** PNG's per-row filters (none, sub, up, average, Paeth) undone. */
function unfilter(raw: Buffer, width: number, height: number, bpp: number): Uint8Array {
  const stride = width * bpp;
  const out = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const row = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let i = 0; i < stride; i++) {
      const a = i >= bpp ? out[y * stride + i - bpp]! : 0;
      const b = y > 0 ? out[(y - 1) * stride + i]! : 0;
      const c = i >= bpp && y > 0 ? out[(y - 1) * stride + i - bpp]! : 0;
      const predictor = [0, a, b, (a + b) >> 1, paeth(a, b, c)][filter]!;
      out[y * stride + i] = (row[i]! + predictor) & 0xff;
    }
  }
  return out;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/**
 * The solid bars of one colour, left to right: runs of neighbouring columns in which that exact colour makes
 * a vertical run of at least `minRun` pixels; each bar's height is its columns' longest run (the median).
 */
export function barsOfColour(
  image: Image,
  colour: string,
  minRun = 4,
): { x: number; width: number; height: number }[] {
  const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(colour.slice(i, i + 2), 16));
  const longest: number[] = [];
  for (let x = 0; x < image.width; x++) {
    let best = 0;
    let run = 0;
    for (let y = 0; y < image.height; y++) {
      const [pr, pg, pb] = image.rgb(x, y);
      run = pr === r && pg === g && pb === b ? run + 1 : 0;
      best = Math.max(best, run);
    }
    longest.push(best >= minRun ? best : 0);
  }
  const bars: { x: number; width: number; height: number }[] = [];
  for (let x = 0; x < longest.length; x++) {
    if (longest[x] === 0) continue;
    let end = x;
    while (end + 1 < longest.length && longest[end + 1]! > 0) end++;
    const runs = longest.slice(x, end + 1).sort((p, q) => p - q);
    bars.push({ x, width: end - x + 1, height: runs[Math.floor(runs.length / 2)]! });
    x = end;
  }
  return bars;
}

/** Share of pixels that are not (near) white: a blank page has none. */
export function inkShare(image: Image): number {
  let ink = 0;
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const [r, g, b] = image.rgb(x, y);
      if (r + g + b < 600) ink++;
    }
  }
  return ink / (image.width * image.height);
}
