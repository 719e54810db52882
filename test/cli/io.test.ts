// Issue 24: what the CLI writes to stdout and stderr carries no control character a cell brought in, and a
// closed pipe ends the output quietly.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { guardedStream, unguardedStream } from '../../src/cli/io.js';
import { ignoreClosedPipe } from '../../src/cli/main.js';
import { hostileCells, unprintableIn } from '../helpers/unprintable.js';

function sink() {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk.toString('utf8'));
      callback();
    },
  });
  return { stream, text: () => chunks.join('') };
}

describe('guardedStream', () => {
  it.each(hostileCells)('escapes %j in text, keeping lines and tabs', (cell) => {
    const out = sink();
    const guarded = guardedStream(out.stream);
    guarded.write(`a\tb: ${cell}\n`);
    guarded.write(Buffer.from(`${cell}\n`));
    expect(unprintableIn(out.text())).toEqual([]);
    expect(out.text().split('\n')).toHaveLength(3);
  });

  it('leaves JSON the same JSON', () => {
    const out = sink();
    const value = { v: 'x\u009b8m\u007f\u2028', ok: true };
    guardedStream(out.stream).write(`${JSON.stringify(value)}\n`);
    expect(JSON.parse(out.text())).toEqual(value);
  });

  it('is the stream in every other respect; the spinner gets the stream underneath', () => {
    const out = sink();
    const guarded = guardedStream(out.stream);
    let drained = 0;
    guarded.on('drain', () => drained++);
    out.stream.emit('drain');
    expect(drained).toBe(1);
    expect(guarded.writable).toBe(true);
    expect(unguardedStream(guarded)).toBe(out.stream);
    expect(unguardedStream(out.stream)).toBe(out.stream);
    unguardedStream(guarded).write('\u001b[?25l');
    expect(out.text()).toBe('\u001b[?25l');
  });
});

describe('ignoreClosedPipe', () => {
  it('drops EPIPE (the reader closed the pipe); other write errors stay errors', () => {
    const out = sink();
    ignoreClosedPipe(out.stream);
    const epipe = Object.assign(new Error('write EPIPE'), { code: 'EPIPE' });
    expect(() => out.stream.emit('error', epipe)).not.toThrow();
    const full = Object.assign(new Error('no space'), { code: 'ENOSPC' });
    expect(() => out.stream.emit('error', full)).toThrow('no space');
  });
});
