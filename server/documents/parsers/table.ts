/** White space a cell keeps as it is: single spaces between other characters (what `cleanCell` makes). */
const UNCLEAN = /[^\S ]| {2}|^ | $/;
const SPACE_RUNS = /\s+/g;
const NUMBER = /^-?[\d.,]+%?$/;

/** A cell with each run of white space made one space, trimmed; most cells need nothing done (no copy). */
function cleanCell(cell: string): string {
  return UNCLEAN.test(cell) ? cell.replace(SPACE_RUNS, " ").trim() : cell;
}

/** A row's cells cleaned, the empty ones at its end dropped (an empty array: a blank row). */
function cleanRow(row: string[]): string[] {
  let end = row.length;
  while (end > 0 && cleanCell(row[end - 1]) === "") end--;
  const cells = new Array<string>(end);
  for (let index = 0; index < end; index++) cells[index] = cleanCell(row[index]);
  return cells;
}

/**
 * Rows of a table (CSV, a spreadsheet) as text a reader and a retriever both follow. With a header row, each
 * row becomes `column: value; column: value`, so a chunk cut from the middle still says what its numbers are;
 * without one, cells are joined with ` | `. Written as plain loops: a large CSV has millions of cells, and the
 * intermediate arrays of map and filter cost more than the text itself.
 */
export function tableText(rows: string[][]): string {
  const cleaned: string[][] = [];
  for (const row of rows) {
    const cells = cleanRow(row);
    if (cells.length > 0) cleaned.push(cells);
  }
  if (cleaned.length === 0) return "";
  const header = cleaned[0];
  const looksLikeHeader = cleaned.length > 1 && header.length > 1 &&
    header.every((cell) => cell !== "" && !NUMBER.test(cell)) &&
    new Set(header).size === header.length;
  const lines = new Array<string>(cleaned.length);
  if (!looksLikeHeader) {
    for (let index = 0; index < cleaned.length; index++) lines[index] = cleaned[index].join(" | ");
    return lines.join("\n");
  }
  // Each column's label, as it starts a cell: "name: ".
  const labels = header.map((name) => `${name}: `);
  lines[0] = `Columns: ${header.join(" | ")}`;
  let count = 1;
  for (let index = 1; index < cleaned.length; index++) {
    const row = cleaned[index];
    let line = "";
    for (let column = 0; column < row.length; column++) {
      const cell = row[column];
      if (cell === "") continue;
      const label = labels[column] ?? `column ${column + 1}: `;
      line = line === "" ? label + cell : `${line}; ${label}${cell}`;
    }
    if (line !== "") lines[count++] = line;
  }
  lines.length = count;
  return lines.join("\n");
}
