// How a field's `columns: [Date, Time, TimeZone]` become one value: the non-empty cells, trimmed, joined with
// one space in the order given. Push (compile-mapping) and init's guess (which tries formats on the joined
// sample) both read joined columns through this one function, so init proposes what push will read.

/** The cells at `indexes` joined as `columns` joins them; '' when every one is empty or absent. */
export function joinedCells(cells: readonly (string | undefined)[], indexes: readonly number[]): string {
  let text = '';
  for (const i of indexes) {
    const cell = cells[i]?.trim();
    if (cell) text = text === '' ? cell : `${text} ${cell}`;
  }
  return text;
}
