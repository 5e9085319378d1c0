/*
 * Days typed as dd.MM.yyyy (the spec's format), not with the browser's date picker, whose
 * format follows the browser's locale rather than the user's. The server reads dd.MM.yyyy and
 * yyyy-MM-dd (links such as the dashboard's quick ranges carry the latter).
 */
export const DAY_INPUT_PROPS = {
  type: "text",
  inputMode: "numeric",
  placeholder: "dd.mm.yyyy",
  pattern: "\\d{1,2}\\.\\d{1,2}\\.\\d{4}|\\d{4}-\\d{2}-\\d{2}",
  autoComplete: "off",
  size: 10,
} as const;
