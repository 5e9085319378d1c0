import { isRouteErrorResponse, useRouteError } from "@remix-run/react";
import { useTranslation } from "react-i18next";

/**
 * The error states of a public page: the not-found page for a link that opens nothing (unknown,
 * rotated, stopped, or its record is gone: the recipient cannot tell which, and need not), "too
 * many requests" for an address over its limit, and the generic error with a way to try again
 * (under the page's own heading when it names one: "The bill of lading could not be loaded").
 */
export function PublicErrorBoundary({ errorTitleKey }: { errorTitleKey?: string } = {}) {
  const error = useRouteError();
  const { t } = useTranslation(["public", "common"]);
  const status = isRouteErrorResponse(error) ? error.status : 500;
  if (status === 404) {
    return (
      <section className="notice public-notice" role="alert" data-testid="not-found">
        <h1>{t("errors.notFoundTitle")}</h1>
        <p>{t("errors.notFoundText")}</p>
      </section>
    );
  }
  if (status === 429) {
    return (
      <section className="notice public-notice" role="alert" data-testid="too-many-requests">
        <h1>{t("errors.tooManyTitle")}</h1>
        <p>{t("errors.tooManyText")}</p>
      </section>
    );
  }
  return (
    <section className="notice public-notice" role="alert" data-testid="error-screen">
      <h1 data-testid="error-heading">{t(errorTitleKey ?? "common:errors.unexpectedTitle")}</h1>
      <p>{t("common:errors.unexpectedText")}</p>
      <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
        {t("common:errors.reload")}
      </button>
    </section>
  );
}
