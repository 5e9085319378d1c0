import type { MetaFunction } from "@remix-run/node";

/**
 * The <head> of a public page: its title (the loader's `title`) and `noindex`, also on its error
 * page (the X-Robots-Tag header says the same to crawlers that read headers only).
 */
export const publicMeta: MetaFunction = ({ data }) => [
  { title: (data as { title?: string } | undefined)?.title ?? "Timber" },
  { name: "robots", content: "noindex, nofollow" },
];
