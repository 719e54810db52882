// The end-to-end tests spawn bin/revimport.js, which runs dist/: build it when src/ is newer.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

export default function setup(): void {
  const root = path.resolve(import.meta.dirname, '../..');
  const built = path.join(root, 'dist/cli/main.js');
  if (existsSync(built) && statSync(built).mtimeMs >= newestMtime(path.join(root, 'src'))) return;
  try {
    execFileSync(
      process.execPath,
      [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
      {
        cwd: root,
        stdio: 'pipe',
      },
    );
  } catch (error) {
    // Unit tests need no build; the end-to-end tests fail on their own, with the CLI's error.
    const output = (error as { stdout?: Buffer }).stdout?.toString() ?? String(error);
    console.warn(`build failed; end-to-end tests will fail:\n${output.slice(0, 2000)}`);
  }
}
