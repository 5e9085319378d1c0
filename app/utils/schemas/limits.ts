import { z } from "zod";

// Limits every schema shares, so a value the database cannot store is a 422 and never a 500:
// dates MariaDB's DATETIME keeps sensibly, JSON it accepts (depth, size), pages SQL can offset.

export const MIN_DATE = new Date(Date.UTC(1970, 0, 1));
export const MAX_DATE = new Date(Date.UTC(2101, 0, 1) - 1);

/** A real date inside 1970–2100 (year 0, negative years and 10000+ are refused). */
export function isSaneDate(d: Date) {
  const t = d.getTime();
  return !Number.isNaN(t) && t >= MIN_DATE.getTime() && t <= MAX_DATE.getTime();
}

// MariaDB refuses JSON nested deeper than 32; we keep well inside it.
export const JSON_MAX_DEPTH = 8;
export const JSON_MAX_BYTES = 16 * 1024;

function depthOf(value: unknown, limit: number, depth = 0): number {
  if (depth > limit) return depth;
  if (value === null || typeof value !== "object") return depth;
  let max = depth + 1;
  for (const child of Object.values(value as Record<string, unknown>)) {
    max = Math.max(max, depthOf(child, limit, depth + 1));
    if (max > limit) break;
  }
  return max;
}

/** Free-form JSON stored in a json column (custom field values): limited depth and size. */
export const boundedJson = <T extends z.ZodType>(
  schema: T,
  opts = { maxDepth: JSON_MAX_DEPTH, maxBytes: JSON_MAX_BYTES },
) =>
  schema.superRefine((value, ctx) => {
    if (depthOf(value, opts.maxDepth) > opts.maxDepth) {
      ctx.addIssue({ code: "custom", message: `Nested deeper than ${opts.maxDepth} levels` });
      return;
    }
    if (Buffer.byteLength(JSON.stringify(value) ?? "", "utf8") > opts.maxBytes)
      ctx.addIssue({ code: "custom", message: `Larger than ${opts.maxBytes} bytes` });
  });

export const MAX_PAGE = 100_000;

/** A page number from a query string: a whole number 1..MAX_PAGE, else the first page. */
export function pageParam(value: string | null | undefined): number {
  if (!value || !/^\d{1,6}$/.test(value.trim())) return 1;
  return Math.min(MAX_PAGE, Math.max(1, Number(value.trim())));
}
