import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { DeviceSeatsSummary } from "~/components/devices/device-seats-summary";
import { DevicesTabs } from "~/components/devices/devices-tabs";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { EmptyState } from "~/components/ui/empty-state";
import { intlLocale } from "~/i18n";
import { listDeviceSeats } from "~/models/billing.server";
import { isNewDevice, listDevices } from "~/models/device-admin.server";
import { requireAppAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";

export const handle = { i18n: ["accounts"] };

// The spec's search debounce.
const SEARCH_DEBOUNCE_MS = 500;

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireAppAdmin(request);
  const q = new URL(request.url).searchParams.get("q") ?? "";
  const [devices, packages] = await Promise.all([listDevices(db(), ctx, { q }), listDeviceSeats(db(), ctx)]);
  return json({
    q,
    packages,
    locale: ctx.user.locale,
    devices: devices.map((d) => ({
      id: d.id,
      name: d.name,
      affiliation: d.affiliation,
      hwId: d.hw_id,
      lastUsed: d.last_used,
      locked: d.locked,
      isNew: isNewDevice(d.created_at),
      userEmail: d.user_email,
    })),
  });
}

export default function DevicesPage() {
  const { t } = useTranslation("accounts");
  const { q, devices, locale, packages } = useLoaderData<typeof loader>();
  const submit = useSubmit();
  const loading = useNavigation().state === "loading";
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);
  const date = (v: string | null) =>
    v ? new Date(v).toLocaleString(intlLocale(locale), { dateStyle: "short", timeStyle: "short" }) : t("devices.never");
  return (
    <div className="page">
      <div className="page-header">
        <h1 className="page-title">{t("devices.title")}</h1>
        <span className="muted" data-testid="device-count">
          {t("devices.count", { count: devices.length })}
        </span>
      </div>
      <DeviceSeatsSummary packages={packages} />
      <DevicesTabs />
      <Form
        method="GET"
        className="toolbar"
        role="search"
        onChange={(e) => {
          const form = e.currentTarget;
          clearTimeout(timer.current);
          timer.current = setTimeout(() => submit(form, { replace: true }), SEARCH_DEBOUNCE_MS);
        }}
      >
        <label className="sr-only" htmlFor="q">
          {t("devices.search")}
        </label>
        <input id="q" name="q" type="search" defaultValue={q} placeholder={t("devices.search")} />
        <noscript>
          <button type="submit" className="btn">
            {t("users.searchSubmit")}
          </button>
        </noscript>
      </Form>
      {devices.length === 0 ? (
        <EmptyState
          title={t("devices.emptyTitle")}
          text={q ? t("devices.noMatch", { q }) : t("devices.empty")}
          testId="devices-empty"
        />
      ) : (
        <ul className={loading ? "device-cards is-loading" : "device-cards"} data-testid="device-list">
          {devices.map((d) => (
            <li key={d.id}>
              <Link to={`/devices/${d.id}`} className="device-card">
                <strong>{d.name}</strong>
                {d.isNew ? (
                  <span className="badge badge-success" data-testid="new-badge">
                    {t("devices.new")}
                  </span>
                ) : null}
                {d.locked ? <span className="badge badge-danger">{t("devices.locked")}</span> : null}
                <span className="muted">{d.affiliation ?? ""}</span>
                <span className="muted small">{d.userEmail ?? d.hwId}</span>
                <span className="muted small">{t("devices.lastUsed", { date: date(d.lastUsed) })}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
