/**
 * Characters that make a spreadsheet read a cell as a formula (OWASP "CSV Injection"): = + - @ tab and CR, plus
 * their full-width forms, which Apple Numbers folds into the ASCII ones, and NUL (some readers drop it, leaving what
 * follows at the start of the cell).
 */
const FORMULA_TRIGGERS: ReadonlySet<string> = new Set([
  "=",
  "+",
  "-",
  "@",
  "\t",
  "\r",
  "\0",
  "\uff1d",
  "\uff0b",
  "\uff0d",
  "\uff20",
]);

/**
 * What a spreadsheet may skip before it looks for a formula: whitespace of any kind (space, NBSP, LF, the Unicode
 * spaces and line separators, BOM), control characters, and the invisible format characters (soft hyphen, zero-width
 * space/joiners, directional marks, word joiner…).
 */
const SKIPPED_PREFIX =
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is skipped here
  /^[\s\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff]+/u;

/**
 * Formula-injection defence: a cell whose text starts with a formula trigger, also after leading whitespace and
 * invisible characters (`"\u00a0=HYPERLINK(…)"`, `"\u200b+cmd"`, `"\n-1+1"`), gets a leading `'`, which spreadsheets
 * show as text. The rule, for both formats:
 * - every text cell we write goes through here: names, references, ids, the search text in the "about" row…;
 * - the money and volume columns (gallons, price per gallon, amount, DEF gallons and amount) are exempt because we
 *   produce them from the model's validated decimals, not from user text: XLSX gets them as numbers, CSV as the
 *   plain decimal ("-12.50"). They are exempt only after checking they are plain decimals (`isPlainDecimal`);
 *   anything else in them is neutralised like text.
 * - CSV also quotes every cell containing `;` (`CSV_QUOTED_MATCH`): spreadsheets in locales whose list separator is
 *   `;` split an unquoted cell there, and the second half would start a new cell, unchecked.
 */
export function neutralizeCell(value: string): string {
  const skipped = SKIPPED_PREFIX.exec(value)?.[0] ?? "";
  // A trigger in the skipped run (tab, CR, NUL; all single UTF-16 units) counts as much as the first visible character.
  const leading = `${skipped}${value.charAt(skipped.length)}`;
  for (let i = 0; i < leading.length; i++) if (FORMULA_TRIGGERS.has(leading.charAt(i))) return `'${value}`;
  return value;
}

/** csv-stringify's `quoted_match`: cells it must quote besides those with `,` `"` CR or LF (see neutralizeCell). */
export const CSV_QUOTED_MATCH = /;/;

const DECIMAL = /^-?\d+\.\d+$/;

/** A decimal as the model writes it ("-12.50"): the only text a money or volume cell may carry unneutralised. */
export const isPlainDecimal = (value: string): boolean => DECIMAL.test(value);
