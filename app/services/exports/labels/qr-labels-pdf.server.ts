import { ensureLabelLinks, labelTargets, labelTokens } from "~/models/qr-labels.server";
import { withAppErrors } from "~/utils/errors";
import { QrLabelsSchema, type QrLabelsSelection } from "~/utils/schemas/qr-labels";
import type { PdfExportType, RowSource } from "../types";

// qr_labels_pdf (feature qr_code): A4 sheets of labels, one per chosen storage or measurement,
// each with its name and a QR code of its public page (print route /print/labels). The links
// are made when the labels are asked for (the caller must be allowed to share a record that has
// none: 403 share_required); a record deleted or unshared since is left out and named.

const qrLabelsSource: RowSource<QrLabelsSelection> = {
  async request(db, ctx, selection) {
    const targets = await labelTargets(db, ctx, selection);
    // Every id must be the organisation's live record, as every other type's named records.
    if (targets.length !== selection.storage_ids.length + selection.measurement_ids.length) return "not_found";
    if (!ctx.organization || !ctx.roles) return "not_found";
    const sharer = { ...ctx, roles: ctx.roles, isAdmin: ctx.isAdmin ?? false, organization: ctx.organization };
    await withAppErrors(() => ensureLabelLinks(db, { ...sharer, timeZone: ctx.user?.time_zone ?? null }, targets));
    return { selection, count: targets.length };
  },
  revive: (params) => QrLabelsSchema.parse(params),
  async prepare(db, organizationId, selection) {
    const targets = await labelTargets(db, { organizationId }, selection);
    const tokens = await labelTokens(db, { organizationId }, targets);
    const printable = targets.filter((t) => tokens.has(`${t.kind}:${t.id}`));
    const printed = new Set(printable.map((t) => `${t.kind}:${t.id}`));
    const gone = [
      ...selection.storage_ids.filter((id) => !printed.has(`storage:${id}`)),
      ...selection.measurement_ids.filter((id) => !printed.has(`measurement:${id}`)),
    ];
    return {
      records: printable.length,
      expectedRows: printable.length,
      leftOut: gone.length
        ? [{ key: "exports:detail.missing", params: { ids: gone.map((id) => `#${id}`).join(", ") } }]
        : [],
    };
  },
};

export const qrLabelsPdf: PdfExportType<QrLabelsSelection> = {
  reportType: "qr_labels_pdf",
  kind: "pdf",
  labelKey: "exports:types.qr_labels_pdf",
  feature: "qr_code",
  selectionKeys: ["measurement_ids"],
  selection: QrLabelsSchema,
  source: qrLabelsSource,
  printPath: "/print/labels",
  pageMargin: "0",
};
