import type { RoleName } from "#db/schema";
import { createOrganization, createStorage, createUser, apiToken } from "#tests/factories";
import { insertContainerMeasurement } from "~/models/container-measurement.server";
import { db } from "~/utils/db.server";

// Containers and bills of lading for tests (docs/decisions/022-containers.md).

/** A reference 1 m long drawn 500 px wide: 5 px per cm, so a log of radius r px is 2r/5 cm. */
export const REFERENCE = { x1: 0, y1: 100, x2: 500, y2: 100, size: 1 };

export async function containerOrg(role: RoleName = "admin", features: string[] = ["container_measurements"]) {
  const org = await createOrganization({ features });
  const user = await createUser(org.id, { role });
  const storage = await createStorage(org.id, { name: "Port yard" });
  return { org, user, storage, token: await apiToken(user.id) };
}

export async function createBill(organizationId: number, name = "BL-1") {
  const r = await db()
    .insertInto("bill_of_ladings")
    .values({ organization_id: organizationId, name })
    .executeTakeFirstOrThrow();
  return Number(r.insertId);
}

export async function createContainer(organizationId: number, billId: number | null, name = "MSKU 100001-1") {
  const r = await db()
    .insertInto("containers")
    .values({ organization_id: organizationId, bill_of_lading_id: billId, name })
    .executeTakeFirstOrThrow();
  return Number(r.insertId);
}

/**
 * A container measurement; logs by their radius in pixels at 5 px/cm: r 75 -> 30 cm, r 40 -> 16 cm,
 * r 33 -> 13.2 cm (JAS 13 cm).
 */
export async function createContainerMeasurement(
  organizationId: number,
  storageId: number,
  values: {
    containerId?: number | null;
    radii?: number[];
    logLength?: number;
    lockedAt?: Date | null;
    takenAt?: Date;
    comment?: string;
  } = {},
) {
  const radii = values.radii ?? [75, 40, 33];
  return insertContainerMeasurement(
    db(),
    { organizationId },
    {
      storage_id: storageId,
      container_id: values.containerId ?? null,
      taken_at: values.takenAt ?? new Date("2026-11-20T08:00:00Z"),
      log_length: values.logLength ?? 4,
      locked_at: values.lockedAt ?? null,
      comment: values.comment ?? null,
      logs: radii.map((r, i) => ({ x: 100 + i * 160, y: 200, r })),
      references: [REFERENCE],
    },
  );
}
