import { describe, expect, it } from 'vitest';
import { urlProblem } from '../src/url-problem.js';

describe('urlProblem', () => {
  it.each([
    ['', 'it is empty'],
    ['crm example', 'it contains a space'],
    ['https://crm example.com', 'it contains a space'],
    ['crm.example.com', 'it has no scheme (https://)'],
    ['localhost:8787', 'it has no scheme (https://)'],
    ['https://crm.example.com:99999', 'the host or port cannot be read'],
    ['https://crm.example.com', undefined],
    ['ftp://crm.example.com', undefined],
    ['http://127.0.0.1:8787/base/', undefined],
  ])('%j: %s', (text, problem) => {
    expect(urlProblem(text)).toBe(problem);
  });
});
