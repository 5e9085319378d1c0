import { useEffect, useState } from "react";

/** How long a copy button says "Copied" (the spec's 2 seconds). */
export const COPIED_FOR_MS = 2000;

/**
 * Copies a public link's whole address (the app's host and the page's path) to the clipboard and
 * says so for 2 seconds. Without JavaScript (or a clipboard) the address stays selectable beside it.
 */
export function CopyLinkButton({
  url,
  label,
  copiedLabel,
  className = "btn",
  testId = "copy-link",
}: {
  url: string;
  label: string;
  copiedLabel: string;
  className?: string;
  testId?: string;
}) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_FOR_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <button
      type="button"
      className={className}
      data-link={url}
      data-testid={testId}
      aria-live="polite"
      onClick={async () => {
        if (await copyText(url)) setCopied(true);
      }}
    >
      {copied ? copiedLabel : label}
    </button>
  );
}

/** The clipboard API where the page may use it (https, localhost), else the older copy command. */
async function copyText(text: string) {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Refused (no permission): try the older way.
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  area.select();
  try {
    return document.execCommand("copy");
  } finally {
    area.remove();
  }
}
