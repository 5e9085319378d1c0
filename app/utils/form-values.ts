/**
 * The text fields of a posted form, to send back with its errors so every field shows what the
 * user typed, also without JavaScript (conform's submission.reply() does the same for conform forms).
 */
export function postedValues(form: FormData, skip: readonly string[] = ["intent"]): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of form.entries()) if (typeof value === "string" && !skip.includes(key)) values[key] = value;
  return values;
}
