import { isRouteErrorResponse, useNavigate, useRouteError } from "@remix-run/react";
import { useTranslation } from "react-i18next";

/**
 * One error screen for every route: a 404 gets the not-found notice with "Go back", a 403 the
 * not-allowed notice, anything else the generic error with a reload.
 */
export function GeneralErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const status = isRouteErrorResponse(error) ? error.status : 500;

  if (status === 404) {
    return (
      <section className="notice" role="alert" data-testid="not-found">
        <h1>{t("errors.notFoundTitle")}</h1>
        <p>{t("errors.notFoundText")}</p>
        <button
          type="button"
          className="btn"
          onClick={() => (window.history.length > 1 ? navigate(-1) : navigate("/"))}
        >
          {t("errors.goBack")}
        </button>
      </section>
    );
  }
  if (status === 403) {
    return (
      <section className="notice" role="alert" data-testid="not-allowed">
        <h1>{t("errors.notAllowedTitle")}</h1>
        <p>{t("errors.notAllowedText")}</p>
      </section>
    );
  }
  return (
    <section className="notice" role="alert" data-testid="error-screen">
      <h1>{t("errors.unexpectedTitle")}</h1>
      <p>{t("errors.unexpectedText")}</p>
      <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
        {t("errors.reload")}
      </button>
    </section>
  );
}
