import { Form } from "@remix-run/react";
import type { ReactNode } from "react";

/**
 * A post to the inventories page that needs the user's confirmation: with JavaScript the browser
 * asks and the form carries confirmed=1; without it the page answers with a second step whose
 * form carries it (`preConfirmed`).
 */
export function InventoryActionForm({
  intent,
  fields,
  question,
  preConfirmed = false,
  className,
  children,
}: {
  intent: "create" | "confirm";
  fields: Record<string, string | number>;
  question: string;
  preConfirmed?: boolean;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Form
      method="post"
      action="/inventories?index"
      className={className}
      onSubmit={(e) => {
        if (preConfirmed) return;
        if (!window.confirm(question)) {
          e.preventDefault();
          return;
        }
        const input = e.currentTarget.elements.namedItem("confirmed");
        if (input instanceof HTMLInputElement) input.value = "1";
      }}
    >
      <input type="hidden" name="intent" value={intent} />
      {Object.entries(fields).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      <input type="hidden" name="confirmed" value={preConfirmed ? "1" : ""} />
      {children}
    </Form>
  );
}
