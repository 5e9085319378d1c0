import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

export type ToastMessage = {
  type: "success" | "error" | "info" | "warning";
  key: string;
  values?: Record<string, string | number>;
};

// The spec's durations: success 3 s, errors 4 s; others like success.
const DURATION: Record<ToastMessage["type"], number> = { success: 3000, error: 4000, warning: 4000, info: 3000 };

type Listener = (toast: ToastMessage) => void;
const listeners = new Set<Listener>();

/** Shows a toast from the browser (e.g. after a fetch). */
export function showToast(toast: ToastMessage) {
  for (const l of listeners) l(toast);
}

export function Toaster({ toast }: { toast: ToastMessage | null }) {
  const { t } = useTranslation();
  const [items, setItems] = useState<Array<ToastMessage & { id: number }>>([]);

  useEffect(() => {
    const add: Listener = (next) => {
      const id = Date.now() + Math.random();
      setItems((list) => [...list, { ...next, id }]);
      setTimeout(() => setItems((list) => list.filter((i) => i.id !== id)), DURATION[next.type]);
    };
    listeners.add(add);
    return () => {
      listeners.delete(add);
    };
  }, []);

  useEffect(() => {
    if (toast) showToast(toast);
  }, [toast]);

  // Without JavaScript the server's toast still shows (the effect above never runs).
  const serverOnly = typeof document === "undefined" && toast ? [{ ...toast, id: 0 }] : [];
  const visible = items.length ? items : serverOnly;
  return (
    <div className="toaster" aria-live="polite">
      {visible.map((item) => (
        <div key={item.id} className={`toast toast-${item.type}`} role="status" data-testid="toast">
          {t(item.key, item.values)}
        </div>
      ))}
    </div>
  );
}
