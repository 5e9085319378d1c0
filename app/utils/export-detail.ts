import type { TFunction } from "i18next";

// An export's status detail ("Left out (deleted or not found): #12.") is stored as translation
// keys with their parameters and worded when shown, in the reader's language, not the language
// of whoever requested the file. Rows written before this keep their text and show it as is.

export interface DetailPart {
  key: `exports:detail.${string}`;
  params?: Record<string, string>;
}

/** The stored form (JSON in exports.status_detail); null when there is nothing to say. */
export function encodeDetail(parts: DetailPart[]): string | null {
  return parts.length ? JSON.stringify(parts) : null;
}

function decode(stored: string): DetailPart[] | null {
  if (!stored.startsWith("[")) return null;
  try {
    const parts = JSON.parse(stored) as unknown;
    return Array.isArray(parts) && parts.every((p) => typeof p?.key === "string") ? (parts as DetailPart[]) : null;
  } catch {
    return null;
  }
}

/** The detail in the reader's words. */
export function detailText(t: TFunction, stored: string | null | undefined): string | null {
  if (!stored) return null;
  const parts = decode(stored);
  return parts ? parts.map((p) => t(p.key, p.params ?? {})).join(" ") : stored;
}
