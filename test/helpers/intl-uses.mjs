// Preloaded into a spawned run (NODE_OPTIONS=--import): at the main thread's exit, writes "intl-use <what>" to
// stderr for every Intl formatter or collator made and every `toLocaleString` / `localeCompare` called on that
// thread. Each of them loads ICU's formatting or collation data (+7 and +2.6 MiB of RSS for the rest of the run,
// src/cli/zone-clock.ts); `Intl.supportedValuesOf` does not, and is not reported.
import { writeSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

if (isMainThread) {
  const uses = new Set();
  for (const name of [
    'DateTimeFormat',
    'NumberFormat',
    'Collator',
    'PluralRules',
    'RelativeTimeFormat',
    'ListFormat',
    'DisplayNames',
    'Segmenter',
  ]) {
    const Original = Intl[name];
    Intl[name] = new Proxy(Original, {
      construct(target, args) {
        uses.add(`Intl.${name}`);
        return Reflect.construct(target, args);
      },
      apply(target, self, args) {
        uses.add(`Intl.${name}`);
        return Reflect.apply(target, self, args);
      },
    });
  }
  const wrap = (proto, method, label) => {
    const original = proto[method];
    proto[method] = function (...args) {
      uses.add(label);
      return original.apply(this, args);
    };
  };
  wrap(Number.prototype, 'toLocaleString', 'Number#toLocaleString');
  wrap(Date.prototype, 'toLocaleString', 'Date#toLocaleString');
  wrap(Date.prototype, 'toLocaleDateString', 'Date#toLocaleDateString');
  wrap(Date.prototype, 'toLocaleTimeString', 'Date#toLocaleTimeString');
  wrap(String.prototype, 'localeCompare', 'String#localeCompare');
  wrap(Array.prototype, 'toLocaleString', 'Array#toLocaleString');
  process.on('exit', () => {
    for (const use of uses) writeSync(2, `intl-use ${use}\n`);
  });
}
