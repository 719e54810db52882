// The ceiling: csv-parse alone over the file (streaming, rows as arrays), rows counted and the value
// column summed. Nothing real can read the same file faster with csv-parse; revimport is measured against it.
// Usage: node bench/peers/ceiling.js <file.csv>
import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';

const file = process.argv[2];
if (!file) throw new Error('usage: ceiling.js <file.csv>');

let rows = 0;
let sum = 0;
let valueIndex = -1;
for await (const record of createReadStream(file).pipe(parse({ relax_column_count: true }))) {
  if (valueIndex < 0) {
    valueIndex = record.indexOf('Value');
    continue;
  }
  rows++;
  sum += Number(record[valueIndex]);
}
process.stdout.write(`${JSON.stringify({ rows, sum: Math.round(sum * 100) / 100 })}\n`);
