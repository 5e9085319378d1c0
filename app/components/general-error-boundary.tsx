import { isRouteErrorResponse, useLocation, useNavigate, useRouteError, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { RootLoader } from "~/root";

/**
 * One error screen for every route: a 404 gets the not-found notice with "Go back", a 403 the
 * not-allowed notice, anything else the generic error with a reload.
 */
export function GeneralErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  // The id of the request that rendered this page on the server; after a client-side navigation
  // to another path the failing request was another one, so none is shown.
  const request = useRouteLoaderData<RootLoader>("root")?.request;
  const { pathname } = useLocation();
  const requestId = request?.id && request.path === pathname ? request.id : null;

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
      {requestId ? (
        <p className="muted" data-testid="request-id">
          {t("errors.requestId", { id: requestId })}
        </p>
      ) : null}
      <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
        {t("errors.reload")}
      </button>
    </section>
  );
}
