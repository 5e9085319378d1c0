import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";

// The spec's idle logout: 15 minutes without a click signs out, a warning shows one minute
// before, and the clock is checked every 10 seconds.
export const IDLE_LOGOUT_MS = 15 * 60_000;
export const IDLE_WARNING_MS = 60_000;
export const IDLE_CHECK_MS = 10_000;

export function IdleLogout() {
  const { t } = useTranslation("accounts");
  const lastClick = useRef(Date.now());
  const form = useRef<HTMLFormElement>(null);
  const [warning, setWarning] = useState(false);

  useEffect(() => {
    const onClick = () => {
      lastClick.current = Date.now();
      setWarning(false);
    };
    document.addEventListener("click", onClick, true);
    const timer = setInterval(() => {
      const idle = Date.now() - lastClick.current;
      if (idle >= IDLE_LOGOUT_MS) form.current?.submit();
      else setWarning(idle >= IDLE_LOGOUT_MS - IDLE_WARNING_MS);
    }, IDLE_CHECK_MS);
    return () => {
      document.removeEventListener("click", onClick, true);
      clearInterval(timer);
    };
  }, []);

  return (
    <>
      <form ref={form} method="post" action="/logout" hidden>
        <input type="hidden" name="reason" value="idle" />
      </form>
      {warning ? (
        <div className="idle-warning" role="alertdialog" aria-live="assertive" data-testid="idle-warning">
          <p>{t("idle.warning")}</p>
          <button type="button" className="btn btn-primary">
            {t("idle.stay")}
          </button>
        </div>
      ) : null}
    </>
  );
}
