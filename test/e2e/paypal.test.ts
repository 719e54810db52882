// The PayPal presets beyond their fixtures: the short "balance affecting" layout (no Transaction ID, no
// e-mail) stops a run at once; with a link supplied its rows sum by Receipt ID; look-alike headers of
// other languages are not read as English.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectPreset } from '../../src/mapping/presets/index.js';
import { issuesOf, root, runCli, tempDir } from '../helpers/cli.js';

const fixture = path.join(root, 'fixtures/presets/paypal');
const short = path.join(fixture, 'short/Download.CSV');

describe('paypal short Amount layout', () => {
  it('is detected as paypal and stops at once (exit 2): nothing in it names the payer', async () => {
    const result = await runCli([
      'push',
      short,
      '-c',
      path.join(fixture, 'revimport.config.json'),
      '--check',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/no conversion in it can be attributed/);
    expect(result.stderr).toMatch(/PayPal activity download/);
  });

  it('with a link supplied: the sale is sent, its tax row skipped by Type, a refund without Receipt ID rejected', async () => {
    const config = path.join(tempDir(), 'short.json');
    writeFileSync(
      config,
      JSON.stringify({
        timezone: 'America/Los_Angeles',
        mapping: { preset: 'paypal', fields: { serviceId: { value: 'visitor-1' } } },
      }),
    );
    const result = await runCli(['push', short, '-c', config, '--check', '--json']);
    const summary = JSON.parse(result.stdout);
    expect(summary.valid).toBe(1);
    expect(summary.totals).toEqual({ USD: 66.8 });
    expect(summary.skippedReasons).toEqual({ 'Type: Tax collected by partner': 1 });
    expect(issuesOf(summary)).toEqual([{ line: 4, column: 'Amount', reason: 'negative value' }]);
  });
});

describe('paypal detection', () => {
  it('reads the German and Spanish layouts as neither English nor Brazilian PayPal', () => {
    const german = [
      'Datum',
      'Uhrzeit',
      'Zeitzone',
      'Name',
      'Typ',
      'Status',
      'Währung',
      'Brutto',
      'Gebühr',
      'Netto',
    ];
    const spanish = ['Fecha', 'Hora', 'Zona horaria', 'Descripción', 'Divisa', 'Bruto', 'Comisión', 'Neto'];
    expect(detectPreset(german).candidates).toEqual([]);
    expect(detectPreset(spanish).candidates).toEqual([]);
  });

  it('tells the short, full and statement English layouts from the Brazilian one', () => {
    const shortHeader = [
      'Date',
      'Time',
      'TimeZone',
      'Name',
      'Type',
      'Status',
      'Currency',
      'Amount',
      'Receipt ID',
      'Balance',
    ];
    const statement = [
      'Date',
      'Time',
      'Time Zone',
      'Description',
      'Currency',
      'Gross',
      'Fee',
      'Net',
      'Balance',
    ];
    const brazilian = [
      'Data',
      'Hora',
      'Fuso horário',
      'Nome',
      'Tipo',
      'Status',
      'Moeda',
      'Valor bruto',
      'Tarifa',
    ];
    expect(detectPreset(shortHeader).match?.name).toBe('paypal');
    expect(detectPreset(statement).match?.name).toBe('paypal');
    expect(detectPreset(brazilian).match?.name).toBe('paypal-pt-br');
    // Without TimeZone it is not a PayPal download (many exports have Date, Time and Currency).
    expect(detectPreset(['Date', 'Time', 'Currency', 'Amount', 'Type']).candidates).toEqual([]);
  });
});
