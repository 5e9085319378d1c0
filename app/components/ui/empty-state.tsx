import type { ReactNode } from "react";

export function EmptyState({
  title,
  text,
  children,
  testId,
}: {
  title: string;
  text?: string;
  children?: ReactNode;
  testId?: string;
}) {
  return (
    <section className="empty-state" data-testid={testId ?? "empty-state"}>
      <h2>{title}</h2>
      {text ? <p>{text}</p> : null}
      {children}
    </section>
  );
}
