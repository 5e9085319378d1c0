import { readPublicBillOfLading, readPublicContainer } from "~/models/public-container.server";
import { readPublicMeasurement } from "~/models/public-measurement.server";
import { readPublicMixedStackReport } from "~/models/public-mixed-stack.server";
import { readPublicStorage } from "~/models/public-storage.server";
import { db } from "~/utils/db.server";
import { pageNumber, publicLanguage, publicNotFound, requirePublicGrant } from "~/utils/public-route.server";
import type { AppLoadContext } from "@remix-run/node";

// What the public pages of each kind and their JSON reads share: the grant of the token, the
// visitor's language, the record's public view (404 once it is gone) and the page's title.

/** A shared measurement: its page (/public_measurement, /vmu_public), its picture and its JSON. */
export async function loadPublicMeasurement(
  request: Request,
  context: AppLoadContext | undefined,
  token: string | undefined,
  opts: { vmuOnly?: boolean } = {},
) {
  const grant = await requirePublicGrant(request, context, token, "measurement", opts);
  const { language, t } = await publicLanguage(request);
  const view = await readPublicMeasurement(db(), grant, token!, t);
  if (!view) publicNotFound();
  return { view, title: `${t("timber:measurement", { id: view.id })} · ${view.organization.name}`, grant, language, t };
}

/** A shared storage, one page of its measurements (a page that does not exist is 404): its page and its JSON. */
export async function loadPublicStorage(
  request: Request,
  context: AppLoadContext | undefined,
  token: string | undefined,
  page: string | null | undefined,
) {
  const grant = await requirePublicGrant(request, context, token, "storage");
  const number = pageNumber(page);
  if (number === null) publicNotFound();
  const { t } = await publicLanguage(request);
  const view = await readPublicStorage(db(), grant, token!, number, t);
  if (!view) publicNotFound();
  return { view, title: `${view.storage.name} · ${view.storage.organization.name}` };
}

/** A shared mixed stack report: its page (/mixed_stack_report/public) and its JSON. */
export async function loadPublicMixedStackReport(
  request: Request,
  context: AppLoadContext | undefined,
  token: string | undefined,
) {
  const grant = await requirePublicGrant(request, context, token, "mixed_stack_report");
  const { language } = await publicLanguage(request);
  const view = await readPublicMixedStackReport(db(), grant, token!);
  if (!view) publicNotFound();
  return { view, title: `${view.name} · ${view.organization.name}`, language };
}

/** A shared container and its measurements: its page (/public_container) and its JSON. */
export async function loadPublicContainer(
  request: Request,
  context: AppLoadContext | undefined,
  token: string | undefined,
) {
  const grant = await requirePublicGrant(request, context, token, "container");
  const { language } = await publicLanguage(request);
  const view = await readPublicContainer(db(), grant, token!);
  if (!view) publicNotFound();
  return { view, title: `${view.container.name} · ${view.organization.name}`, language };
}

/** A shared bill of lading, its containers and their measurements: its page (/public_bill_of_lading) and its JSON. */
export async function loadPublicBillOfLading(
  request: Request,
  context: AppLoadContext | undefined,
  token: string | undefined,
) {
  const grant = await requirePublicGrant(request, context, token, "bill_of_lading");
  const { language } = await publicLanguage(request);
  const view = await readPublicBillOfLading(db(), grant, token!);
  if (!view) publicNotFound();
  return { view, title: `${view.bill_of_lading.name} · ${view.organization.name}`, language };
}
