/** "a,b" or ["a","b"] to a list. */
export function listParam(value: string | string[] | null | undefined) {
  if (!value) return [];
  return (Array.isArray(value) ? value : value.split(",")).map((s) => s.trim()).filter(Boolean);
}
