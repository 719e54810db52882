// The README's own examples as the tests run them: a section's fenced code blocks, the shell commands in
// them, and a crontab entry split as cron splits it (issue 20: the README's examples must work as copied).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { root } from './cli.js';

export const readme = (): string => readFileSync(path.join(root, 'README.md'), 'utf8');

/** The text of the `## title` section, up to the next heading of level 2. */
export function readmeSection(title: string, text = readme()): string {
  const start = text.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`README has no section "## ${title}"`);
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end < 0 ? undefined : end);
}

/** The contents of the fenced blocks of one language (```sh, ```cron, ```yaml) in `text`, in order. */
export function codeBlocks(text: string, language: string): string[] {
  const blocks: string[] = [];
  const fence = new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, 'gm');
  for (const match of text.matchAll(fence)) blocks.push(match[1] ?? '');
  return blocks;
}

/** The commands of a shell block: comment-only lines dropped, a backslash-newline continuation kept in one. */
export function shellCommands(block: string): string[] {
  const commands: string[] = [];
  let current = '';
  for (const line of block.split('\n')) {
    if (current === '' && (line.trim() === '' || line.trim().startsWith('#'))) continue;
    current += current === '' ? line : `\n${line}`;
    if (!line.endsWith('\\')) {
      commands.push(current);
      current = '';
    }
  }
  if (current !== '') commands.push(current);
  return commands;
}

export interface CronEntry {
  schedule: string;
  /** What cron hands to `/bin/sh -c`: up to the first unescaped `%`, each `\%` turned into `%`. */
  command: string;
  /** The rest, `%` turned into newlines: the command's stdin. */
  stdin: string;
}

/**
 * A crontab line as cron(8) reads it: five time fields, then the command, where a bare `%` ends the command
 * (the rest is stdin) and `\%` is a literal `%` (crontab(5)). Environment lines and comments are undefined.
 */
export function parseCronEntry(line: string): CronEntry | undefined {
  if (line.trim().startsWith('#') || /^\s*[A-Za-z_][A-Za-z0-9_]*\s*=/.test(line)) return undefined;
  const match = /^\s*((?:\S+\s+){4}\S+)\s+(.*)$/.exec(line);
  if (!match) return undefined;
  let command = '';
  let stdin: string | undefined;
  const text = match[2] ?? '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && text[i + 1] === '%') {
      if (stdin === undefined) command += '%';
      else stdin += '%';
      i++;
    } else if (c === '%') {
      if (stdin === undefined) stdin = '';
      else stdin += '\n';
    } else if (stdin === undefined) command += c;
    else stdin += c;
  }
  return { schedule: match[1] ?? '', command, stdin: stdin ?? '' };
}

/** The `NAME=value` lines of a crontab, as cron sets them in its jobs' environment. */
export function cronEnvironment(crontab: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of crontab.split('\n')) {
    const match = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (match?.[1]) env[match[1]] = (match[2] ?? '').replace(/^(["'])(.*)\1$/, '$2');
  }
  return env;
}
