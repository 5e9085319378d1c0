import type { DB } from "~/utils/db.server";
import { ForbiddenError } from "~/utils/errors";
import type { QrLabelsSelection } from "~/utils/schemas/qr-labels";
import {
  createPublicLink,
  PUBLIC_KINDS,
  publicTokensOf,
  rotatePublicLink,
  type PublicKindPlug,
  type SharerCtx,
} from "./public-link.server";

// QR labels (feature qr_code, docs/decisions/026-exports-and-labels.md): one label per chosen
// storage or measurement, its QR code the address of the record's public page. The links are
// the public links of decision 013: a record without one (or with one made before links could be
// shown again) gets one when the labels are asked for, by someone who may share it.

type Org = { organizationId: number };
export type LabelKind = "storage" | "measurement";

export interface LabelTarget {
  kind: LabelKind;
  id: number;
  name: string;
}

/** The chosen records that are the organisation's and live, storages first, each in the order asked. */
export async function labelTargets(db: DB, org: Org, selection: QrLabelsSelection): Promise<LabelTarget[]> {
  const [storages, measurements] = await Promise.all([
    selection.storage_ids.length
      ? db
          .selectFrom("storages")
          .select(["id", "name"])
          .where("organization_id", "=", org.organizationId)
          .where("deleted_at", "is", null)
          .where("id", "in", selection.storage_ids)
          .execute()
      : [],
    selection.measurement_ids.length
      ? db
          .selectFrom("measurements as m")
          .innerJoin("storages as s", "s.id", "m.storage_id")
          .select(["m.id", "s.name as storage_name"])
          .where("m.organization_id", "=", org.organizationId)
          .where("m.deleted_at", "is", null)
          .where("m.id", "in", selection.measurement_ids)
          .execute()
      : [],
  ]);
  const storageById = new Map(storages.map((s) => [s.id, s.name]));
  const measurementById = new Map(measurements.map((m) => [m.id, m.storage_name]));
  return [
    ...selection.storage_ids
      .filter((id) => storageById.has(id))
      .map((id) => ({ kind: "storage" as const, id, name: storageById.get(id)! })),
    ...selection.measurement_ids
      .filter((id) => measurementById.has(id))
      .map((id) => ({ kind: "measurement" as const, id, name: measurementById.get(id)! })),
  ];
}

/** Showable tokens of the targets, by "kind:id". */
export async function labelTokens(db: DB, org: Org, targets: readonly LabelTarget[]) {
  const tokens = new Map<string, string>();
  for (const kind of ["storage", "measurement"] as const) {
    const ids = targets.filter((t) => t.kind === kind).map((t) => t.id);
    for (const [id, token] of await publicTokensOf(db, org, kind, ids)) tokens.set(`${kind}:${id}`, token);
  }
  return tokens;
}

/**
 * Makes the links the targets lack. A record without a showable token needs a sharer's right
 * (ForbiddenError otherwise, and nothing is made); one whose link cannot be shown again gets a
 * new token, as "Create public link" does for it.
 */
export async function ensureLabelLinks(
  db: DB,
  ctx: SharerCtx & { userId?: number | null; timeZone?: string | null },
  targets: readonly LabelTarget[],
) {
  const tokens = await labelTokens(db, ctx, targets);
  const missing = targets.filter((t) => !tokens.has(`${t.kind}:${t.id}`));
  for (const t of missing) {
    const plug: PublicKindPlug = PUBLIC_KINDS[t.kind];
    if (!(await plug.mayShare(db, ctx, t.id))) throw new ForbiddenError("share_required");
  }
  for (const t of missing) {
    const existing = await db
      .selectFrom("public_links")
      .select("id")
      .where("organization_id", "=", ctx.organizationId)
      .where("kind", "=", t.kind)
      .where("record_id", "=", t.id)
      .executeTakeFirst();
    if (existing) await rotatePublicLink(db, ctx, t.kind, t.id);
    else await createPublicLink(db, ctx, t.kind, t.id);
  }
  return missing.length;
}

/** The address a label's QR code holds: the app's origin and the record's public page. */
export function labelUrl(origin: string, kind: LabelKind, token: string, organization: { vmu_enabled: boolean }) {
  return new URL(PUBLIC_KINDS[kind].path(token, organization), origin).toString();
}
