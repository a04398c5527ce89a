/**
 * Rows of a table (CSV, a spreadsheet) as text a reader and a retriever both follow. With a header row, each
 * row becomes `column: value; column: value`, so a chunk cut from the middle still says what its numbers are;
 * without one, cells are joined with ` | `.
 */
export function tableText(rows: string[][]): string {
  const cleaned = rows
    .map((row) => {
      const cells = row.map((cell) => cell.replace(/\s+/g, " ").trim());
      while (cells.length > 0 && cells[cells.length - 1] === "") cells.pop();
      return cells;
    })
    .filter((row) => row.length > 0);
  if (cleaned.length === 0) return "";
  const header = cleaned[0];
  const looksLikeHeader = cleaned.length > 1 && header.length > 1 &&
    header.every((cell) => cell !== "" && !/^-?[\d.,]+%?$/.test(cell)) &&
    new Set(header).size === header.length;
  if (!looksLikeHeader) return cleaned.map((row) => row.join(" | ")).join("\n");
  const lines = cleaned.slice(1).map((row) =>
    row.map((cell, index) => (cell === "" ? "" : `${header[index] ?? `column ${index + 1}`}: ${cell}`))
      .filter((cell) => cell !== "")
      .join("; ")
  );
  return [`Columns: ${header.join(" | ")}`, ...lines.filter((line) => line !== "")].join("\n");
}
