import { useId, type InputHTMLAttributes, type ReactNode } from "react";

/** One labelled input with its errors wired through aria-invalid and aria-describedby. */
export function Field({
  label,
  inputProps,
  errors,
  hint,
  className,
}: {
  className?: string;
  label: ReactNode;
  inputProps: InputHTMLAttributes<HTMLInputElement>;
  errors?: string[] | null;
  hint?: ReactNode;
}) {
  const fallbackId = useId();
  const id = inputProps.id ?? fallbackId;
  const errorId = errors?.length ? `${id}-error` : undefined;
  return (
    <div className={className ? `field ${className}` : "field"}>
      <label htmlFor={id}>{label}</label>
      <input id={id} aria-invalid={errorId ? true : undefined} aria-describedby={errorId} {...inputProps} />
      {hint ? <div className="field-hint">{hint}</div> : null}
      {errorId ? (
        <ul id={errorId} className="field-errors">
          {errors!.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
