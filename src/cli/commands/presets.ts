// `revimport presets [name]`: list the built-in presets, or show one's mapping.
import { UsageError } from '../../errors.js';
import { findPreset, presets, unknownPreset } from '../../mapping/presets/index.js';
import type { CommandContext } from '../context.js';
import { ExitCode } from '../exit-codes.js';

export async function presetsCommand(
  name: string | undefined,
  options: Record<string, unknown>,
  context: CommandContext,
): Promise<number> {
  const { io } = context;
  if (name === undefined) {
    if (options.json) {
      const list = presets.map((p) => ({
        name: p.name,
        title: p.title,
        format: p.format,
        policy: p.policy,
        seen: p.seen,
      }));
      io.stdout.write(`${JSON.stringify(list)}\n`);
      return ExitCode.ok;
    }
    // Each preset: its name and export on one line, what it counts as revenue indented below it.
    const width = Math.max(...presets.map((p) => p.name.length));
    for (const preset of presets) {
      io.stdout.write(`${preset.name.padEnd(width)}  ${preset.title}\n`);
      io.stdout.write(`${' '.repeat(width)}    revenue: ${preset.policy}\n`);
      if (preset.seen === 'documented') {
        io.stdout.write(`${' '.repeat(width)}    documented, no real sample seen\n`);
      }
    }
    return ExitCode.ok;
  }
  const preset = findPreset(name);
  if (!preset) {
    const { message, hint } = unknownPreset(name);
    throw new UsageError(message, { hint });
  }
  if (options.json) {
    io.stdout.write(`${JSON.stringify(preset)}\n`);
    return ExitCode.ok;
  }
  const lines = [
    `${preset.name}: ${preset.title}`,
    preset.description,
    `format: ${preset.format}`,
    `revenue: ${preset.policy}`,
    preset.seen === 'real' ? 'tried on real exports (docs/formats.md)' : 'documented, no real sample seen',
    `detected by columns: ${preset.detect.all.join(', ')}${preset.detect.any ? ` and one of ${preset.detect.any.join(', ')}` : ''}${preset.detect.fallback ? ` (or, ranked lower, ${preset.detect.fallback.join(', ')})` : ''}`,
    'mapping:',
    ...JSON.stringify(preset.mapping, null, 2)
      .split('\n')
      .map((l) => `  ${l}`),
    ...preset.notes.map((n) => `note: ${n}`),
  ];
  io.stdout.write(`${lines.join('\n')}\n`);
  return ExitCode.ok;
}
