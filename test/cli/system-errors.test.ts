import { describe, expect, it } from 'vitest';
import { describeCode, describeSystemError, explainCodes } from '../../src/cli/system-errors.js';

describe('system error codes as sentences', () => {
  it.each([
    ['ENOENT', 'the file does not exist (ENOENT)'],
    ['ENOTFOUND', 'the host name did not resolve (ENOTFOUND)'],
    ['ECONNREFUSED', 'the connection was refused: nothing listens at that address and port (ECONNREFUSED)'],
    ['UND_ERR_SOCKET', 'the connection closed unexpectedly (UND_ERR_SOCKET)'],
    ['EACCES', 'permission denied (EACCES)'],
    ['SOMETHING_NEW', 'SOMETHING_NEW'],
  ])('%s', (code, sentence) => {
    expect(describeCode(code)).toBe(sentence);
  });

  it('explains bare codes in a message, once, and leaves codes already in parentheses or in words alone', () => {
    expect(explainCodes('gave up after 2 attempts: ENOTFOUND; kept for the next run')).toBe(
      'gave up after 2 attempts: the host name did not resolve (ENOTFOUND); kept for the next run',
    );
    const explained = explainCodes('no response: ECONNRESET');
    expect(explainCodes(explained)).toBe(explained);
    expect(explainCodes('MY_ENOENT_FLAG and XENOENT')).toBe('MY_ENOENT_FLAG and XENOENT');
  });

  it('describes an error by its code, else by its message', () => {
    const missing = Object.assign(new Error("ENOENT: no such file or directory, open 'x'"), {
      code: 'ENOENT',
    });
    expect(describeSystemError(missing)).toBe('the file does not exist (ENOENT)');
    expect(describeSystemError(new Error('odd'))).toBe('odd');
  });
});
