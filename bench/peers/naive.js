// The script a user would write instead of revimport: csv-parse with `columns: true`, fetch, batches of
// 1000 sent one after another, no validation, and `new Date(localTime)` (the machine's zone, not the
// row's) for the time. No ledger, no retries: a re-run sends everything again.
// Usage: REVIMPORT_API_KEY=... node bench/peers/naive.js <file.csv> <baseUrl>
import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';

const [file, baseUrl] = process.argv.slice(2);
if (!file || !baseUrl) throw new Error('usage: naive.js <file.csv> <baseUrl>');
const url = `${baseUrl.replace(/\/+$/, '')}/api/revenues`;
const apiKey = process.env.REVIMPORT_API_KEY ?? '';

let batch = [];
let sent = 0;
async function send() {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: JSON.stringify(batch),
  });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  await response.text();
  sent += batch.length;
  batch = [];
}

for await (const row of createReadStream(file).pipe(parse({ columns: true }))) {
  batch.push({
    conversionId: row['Order ID'],
    serviceId: row['Visitor ID'],
    conversionEmail: row.Email,
    conversionName: row['Conversion Name'],
    conversionDatetime: new Date(row['Conversion Time']).toISOString(),
    conversionTimezone: row.Zone,
    conversionValue: Number(row.Value),
    conversionCurrency: row.Currency,
  });
  if (batch.length === 1000) await send();
}
if (batch.length > 0) await send();
process.stdout.write(`${JSON.stringify({ sent })}\n`);
