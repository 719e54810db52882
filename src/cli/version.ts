// The package version, read once from package.json (two folders up from dist/cli or src/cli).
import { readFileSync } from 'node:fs';

export const version: string = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
