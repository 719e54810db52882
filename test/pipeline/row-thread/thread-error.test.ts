import { deserialize, serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { ColumnMismatchError, ConfigError, NoPresetError, RevimportError } from '../../../src/errors.js';
import { reviveError, sendError } from '../../../src/pipeline/row-thread/thread-error.js';

/** Through V8's serializer, as postMessage copies it. */
const across = (error: unknown) => reviveError(deserialize(serialize(sendError(error))));

describe('errors from the row thread (thread-error.ts)', () => {
  it('come back of the same class with the same fields', () => {
    const noPreset = across(
      new NoPresetError('export.csv', 'no preset reads export.csv', { hint: 'run init' }),
    );
    expect(noPreset).toBeInstanceOf(NoPresetError);
    expect(noPreset).toBeInstanceOf(ConfigError);
    expect(noPreset).toMatchObject({
      file: 'export.csv',
      message: 'no preset reads export.csv',
      hint: 'run init',
      kind: 'config',
      name: 'NoPresetError',
    });

    const mismatch = across(
      new ColumnMismatchError('orders.csv:1', 'no column "Total"', 'the mapping expects Total'),
    );
    expect(mismatch).toBeInstanceOf(ColumnMismatchError);
    expect(mismatch).toMatchObject({ where: 'orders.csv:1', lacks: 'no column "Total"', kind: 'config' });

    const config = across(new ConfigError('bad lookup', { cause: new Error('inner') }));
    expect(config).toBeInstanceOf(RevimportError);
    expect((config as Error).cause).toMatchObject({ message: 'inner' });
  });

  it("keep a system error's code and path, and a plain value as a message", () => {
    const system = Object.assign(new Error("ENOENT: no such file or directory, open 'x.csv'"), {
      code: 'ENOENT',
      errno: -2,
      syscall: 'open',
      path: 'x.csv',
    });
    const back = across(system);
    expect(back).toBeInstanceOf(Error);
    expect(back).toMatchObject({
      code: 'ENOENT',
      errno: -2,
      syscall: 'open',
      path: 'x.csv',
      message: system.message,
    });
    expect(across('thrown text').message).toBe('thrown text');
    expect(across(new RangeError('too far'))).toBeInstanceOf(RangeError);
  });
});
