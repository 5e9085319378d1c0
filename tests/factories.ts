import { randomBytes } from "node:crypto";
import type { AssignableType, CustomFieldSource, RoleName } from "#db/schema";
import { createSession } from "~/models/session.server";
import { db } from "~/utils/db.server";
import { hashPassword } from "~/utils/password.server";
import { commitSessionCookie } from "~/utils/session.server";

// A few lines make an organisation with users, roles, storages and measurements.

const unique = () => randomBytes(4).toString("hex");
export const PASSWORD = "Correct-Horse-42!";
let cachedHash: Promise<string> | undefined;

export async function createOrganization(values: { name?: string; features?: string[]; cmpc_enabled?: boolean } = {}) {
  const r = await db()
    .insertInto("organizations")
    .values({
      name: values.name ?? `Org ${unique()}`,
      features: JSON.stringify(values.features ?? []),
      cmpc_enabled: values.cmpc_enabled ?? false,
    })
    .executeTakeFirstOrThrow();
  return { id: Number(r.insertId), name: values.name };
}

export async function createUser(
  organizationId: number,
  opts: {
    role?: RoleName;
    email?: string;
    name?: string;
    locale?: string;
    on?: { type: AssignableType; id: number };
    verified?: boolean;
    setupDone?: boolean;
  } = {},
) {
  cachedHash ??= hashPassword(PASSWORD);
  const email = opts.email ?? `user-${unique()}@example.test`;
  const r = await db()
    .insertInto("users")
    .values({
      email,
      name: opts.name ?? "Test User",
      password_hash: await cachedHash,
      locale: opts.locale ?? "en",
      verified_at: opts.verified === false ? null : new Date(),
      // Past the /setup screen unless a test wants the access guard to send the user there.
      devices_updated_at: opts.setupDone === false ? null : new Date(),
      recent_organization_id: organizationId,
    })
    .executeTakeFirstOrThrow();
  const id = Number(r.insertId);
  await addRole(id, organizationId, opts.role ?? "admin", opts.on);
  return { id, email, password: PASSWORD };
}

export async function addRole(
  userId: number,
  organizationId: number,
  name: RoleName,
  on?: { type: AssignableType; id: number },
) {
  await db()
    .insertInto("roles")
    .values({
      user_id: userId,
      organization_id: organizationId,
      name,
      assignable_type: on?.type ?? "Organization",
      assignable_id: on?.id ?? organizationId,
    })
    .execute();
}

export async function createStorage(organizationId: number, values: { name?: string; storage_state_id?: number } = {}) {
  const r = await db()
    .insertInto("storages")
    .values({
      organization_id: organizationId,
      name: values.name ?? `Storage ${unique()}`,
      storage_state_id: values.storage_state_id ?? 2,
      latitude: 58.38,
      longitude: 26.72,
    })
    .executeTakeFirstOrThrow();
  return { id: Number(r.insertId) };
}

export async function createMeasurement(
  organizationId: number,
  storageId: number,
  values: { volume?: number; takenAt?: Date } = {},
) {
  const r = await db()
    .insertInto("measurements")
    .values({
      organization_id: organizationId,
      storage_id: storageId,
      taken_at: values.takenAt ?? new Date(),
      volume: values.volume ?? 1.5,
      logs_count: 3,
      log_length: 3,
    })
    .executeTakeFirstOrThrow();
  return { id: Number(r.insertId) };
}

/** A bearer token for /api/web_app calls, as POST /logins would give. */
export async function apiToken(userId: number, ttlSeconds = 3600) {
  const s = await createSession(db(), { userId, kind: "api", ttlSeconds });
  return s.token;
}

/** A Cookie header of a signed-in screen session (what a browser would send). */
export async function webCookie(userId: number, ttlSeconds = 3600) {
  const s = await createSession(db(), { userId, kind: "web", ttlSeconds });
  const setCookie = await commitSessionCookie(s.token, s.expiresAt);
  return setCookie.split(";")[0];
}

/**
 * A measured stack as the mobile app would leave it: a drawn photo (original only, no renditions
 * unless the photo job runs), its logs with diameters and volumes from the domain, the reference.
 */
export async function createMeasuredStack(
  organizationId: number,
  storageId: number,
  opts: { seed?: number; lengthM?: number; photo?: boolean; takenAt?: Date; width?: number; height?: number } = {},
) {
  const { computeMeasurementLogs } = await import("~/domain/measurement-logs");
  const { layoutStack, renderStackJpeg } = await import("#db/seed/stack-photo");
  const { storeOriginalPhoto } = await import("~/services/photos.server");
  const { fileStorage } = await import("~/services/file-storage.server");
  const seed = opts.seed ?? 7;
  const stack = layoutStack(seed, { width: opts.width ?? 1000, height: opts.height ?? 750 });
  const lengthM = opts.lengthM ?? 4;
  const computed = computeMeasurementLogs(stack.logs, { references: [stack.reference], formula: "cylinder", lengthM });
  const r = await db()
    .insertInto("measurements")
    .values({
      organization_id: organizationId,
      storage_id: storageId,
      taken_at: opts.takenAt ?? new Date(),
      measured_at: opts.takenAt ?? new Date(),
      log_length: lengthM,
      logs_count: computed.logsCount,
      volume: computed.volume,
      volume_formula: "cylinder",
      wood_type_id: 2,
    })
    .executeTakeFirstOrThrow();
  const id = Number(r.insertId);
  await db()
    .insertInto("logs")
    .values(
      computed.logs.map((l) => ({
        organization_id: organizationId,
        measurement_id: id,
        x: l.x,
        y: l.y,
        r: l.r,
        d: l.d,
        v: l.v,
      })),
    )
    .execute();
  await db()
    .insertInto("measurement_references")
    .values({ organization_id: organizationId, measurement_id: id, ...stack.reference })
    .execute();
  if (opts.photo ?? true) {
    await storeOriginalPhoto(db(), fileStorage(), "timber", {
      organizationId,
      measurementId: id,
      data: await renderStackJpeg(stack, seed),
      fileName: "stack.jpg",
    });
  }
  return { id, logsCount: computed.logsCount, volume: computed.volume };
}

/** Many synthetic logs on one measurement, inserted in bulk (big-export and crash tests). */
export async function insertManyLogs(organizationId: number, measurementId: number, count: number) {
  const { sql } = await import("kysely");
  const chunk = 5000;
  for (let done = 0; done < count; done += chunk) {
    const n = Math.min(chunk, count - done);
    const rows = Array.from({ length: n }, (_, i) => {
      const k = done + i;
      const d = 12 + (k % 300) / 10;
      return sql`(${organizationId}, ${measurementId}, ${k % 1000}, ${Math.floor(k / 1000)}, ${d * 2}, ${d}, ${(Math.PI / 4) * (d / 100) ** 2 * 4})`;
    });
    await sql`INSERT INTO logs (organization_id, measurement_id, x, y, r, d, v) VALUES ${sql.join(rows)}`.execute(db());
  }
  await db()
    .updateTable("measurements")
    .set((eb) => ({ logs_count: eb("logs_count", "+", count) }))
    .where("id", "=", measurementId)
    .execute();
}

/**
 * A live subscription with items (billing), its features stored on the organisation as the
 * billing module would. Default: one pro seat, active for a month.
 */
export async function createSubscription(
  organizationId: number,
  opts: {
    items?: Array<{ package_id: string; quantity?: number; cancelled?: boolean }>;
    status?: "active" | "trialing" | "canceled";
    interval?: "month" | "year";
    paidUntil?: Date;
    remaining?: number;
  } = {},
) {
  const { ensureBillingAccount, recomputeFeatures, updateBillingAccount, upsertItem } =
    await import("~/models/billing.server");
  await ensureBillingAccount(db(), { organizationId });
  await updateBillingAccount(
    db(),
    { organizationId },
    {
      status: opts.status ?? "active",
      interval: opts.interval ?? "month",
      paid_until: opts.paidUntil ?? new Date(Date.now() + 30 * 24 * 3600 * 1000),
      trial_end: opts.status === "trialing" ? (opts.paidUntil ?? new Date(Date.now() + 30 * 24 * 3600 * 1000)) : null,
      trial_used: opts.status === "trialing",
    },
  );
  if (opts.remaining !== undefined) {
    await db()
      .updateTable("billing_accounts")
      .set({ remaining_measurements: opts.remaining })
      .where("organization_id", "=", organizationId)
      .execute();
  }
  for (const item of opts.items ?? [{ package_id: "pro_subscription", quantity: 1 }]) {
    await upsertItem(
      db(),
      { organizationId },
      {
        package_id: item.package_id as never,
        quantity: item.quantity ?? 1,
        cancelled: item.cancelled,
      },
    );
  }
  return recomputeFeatures(db(), { organizationId });
}

/** A paired device of the organisation and its bearer token (as POST /api/device/pairings gives). */
export async function createDevice(
  organizationId: number,
  values: { allStorages?: boolean; storageIds?: number[]; locked?: boolean } = {},
) {
  const token = randomBytes(24).toString("hex");
  const { hashToken } = await import("~/utils/token.server");
  const r = await db()
    .insertInto("devices")
    .values({
      organization_id: organizationId,
      name: `Phone ${unique()}`,
      hw_id: unique(),
      token_hash: hashToken(token),
      all_storages: values.allStorages ?? true,
      locked: values.locked ?? false,
      // Just used: requireDevice's once-a-minute last_used write stays out of "nothing changed" checks.
      last_used: new Date(),
    })
    .executeTakeFirstOrThrow();
  const id = Number(r.insertId);
  if (values.storageIds?.length) {
    await db()
      .insertInto("device_storages")
      .values(values.storageIds.map((storage_id) => ({ device_id: id, storage_id })))
      .execute();
  }
  return { id, token };
}

export async function createCustomField(
  organizationId: number,
  values: {
    key: string;
    name?: string;
    data_type?: "string" | "integer" | "decimal" | "date" | "boolean";
    required?: boolean;
    /** Whose field it is: timber measurements by default, "lumber_measurement"... */
    source_key?: CustomFieldSource;
  },
) {
  const r = await db()
    .insertInto("custom_fields")
    .values({
      organization_id: organizationId,
      key: values.key,
      name: values.name ?? values.key,
      source_key: values.source_key ?? "measurement",
      data_type: values.data_type ?? "string",
      searchable: true,
      required: values.required ?? false,
    })
    .executeTakeFirstOrThrow();
  return { id: Number(r.insertId) };
}

/**
 * Gives an organisation a paid plan (pro, `devices` seats) so it may link devices and upload
 * without picture credits, keeping the feature flags the test asked createOrganization for:
 * tests of other areas should not depend on which bundle grants which flag.
 */
export async function givePlan(organizationId: number, opts: { devices?: number } = {}) {
  const before = await db()
    .selectFrom("organizations")
    .select("features")
    .where("id", "=", organizationId)
    .executeTakeFirstOrThrow();
  const planFeatures = await createSubscription(organizationId, {
    items: [{ package_id: "pro_subscription", quantity: opts.devices ?? 10 }],
  });
  const features = [...new Set([...(Array.isArray(planFeatures) ? planFeatures : []), ...before.features])];
  await db()
    .updateTable("organizations")
    .set({ features: JSON.stringify(features) })
    .where("id", "=", organizationId)
    .execute();
  return features;
}

/**
 * A lumber measurement as the mobile app would leave it: a product (created unless one is given;
 * `productId: null` for none), a drawn package photo stored through the file storage (unless
 * `photo: false`), its planks exactly as drawn, and the plank count and volume from the domain.
 */
export async function createLumberMeasurement(
  organizationId: number,
  storageId: number,
  opts: {
    seed?: number;
    productId?: number | null;
    product?: { name?: string; plank_length: number; plank_width: number; plank_height: number };
    photo?: boolean;
    maxPlanks?: number;
    takenAt?: Date;
    inventoryId?: number | null;
    deviceId?: number | null;
    comment?: string | null;
    measurementTypeId?: number;
  } = {},
) {
  const { layoutPackage, renderPackageJpeg } = await import("#db/seed/lumber-photo");
  const { lumberTotals, getLumberProductSize } = await import("~/models/lumber.server");
  const { storeOriginalPhoto } = await import("~/services/photos.server");
  const { fileStorage } = await import("~/services/file-storage.server");
  let productId = opts.productId;
  if (productId === undefined) {
    const p = opts.product ?? { plank_length: 4200, plank_width: 150, plank_height: 50 };
    const r = await db()
      .insertInto("lumber_products")
      .values({
        organization_id: organizationId,
        name: p.name ?? `Board ${unique()}`,
        plank_length: p.plank_length,
        plank_width: p.plank_width,
        plank_height: p.plank_height,
      })
      .executeTakeFirstOrThrow();
    productId = Number(r.insertId);
  }
  const product = await getLumberProductSize(db(), { organizationId }, productId);
  const seed = opts.seed ?? 3;
  // A small picture keeps the tests quick: 1 px per 2 mm of a 150 x 50 mm section.
  const pkg = layoutPackage(seed, {
    width: 800,
    height: 600,
    plankWidthMm: product?.plank_width ?? 150,
    plankHeightMm: product?.plank_height ?? 50,
    pxPerMm: 0.5,
    maxPlanks: opts.maxPlanks,
  });
  const takenAt = opts.takenAt ?? new Date();
  const r = await db()
    .insertInto("lumber_measurements")
    .values({
      organization_id: organizationId,
      storage_id: storageId,
      lumber_product_id: productId,
      device_id: opts.deviceId ?? null,
      measurement_type_id: opts.measurementTypeId ?? 0,
      taken_at: takenAt,
      inventory_id: opts.inventoryId ?? null,
      comment: opts.comment ?? null,
      // The drawing's size even without a stored photo, so plank bounds are checked the same way.
      photo_width: pkg.width,
      photo_height: pkg.height,
      custom_fields: "{}",
    })
    .executeTakeFirstOrThrow();
  const id = Number(r.insertId);
  await db()
    .insertInto("planks")
    .values(pkg.planks.map((p) => ({ organization_id: organizationId, lumber_measurement_id: id, ...p })))
    .execute();
  if (opts.photo ?? true) {
    await storeOriginalPhoto(db(), fileStorage(), "lumber", {
      organizationId,
      measurementId: id,
      data: await renderPackageJpeg(pkg, seed),
      fileName: "package.jpg",
    });
  }
  const totals = lumberTotals(
    pkg.planks.map((p) => ({ ...p, is_deleted: false })),
    product,
  );
  await db()
    .updateTable("lumber_measurements")
    .set({ plank_count: totals.plankCount, volume: totals.volume })
    .where("id", "=", id)
    .execute();
  const planks = await db()
    .selectFrom("planks")
    .select(["id", "x", "y", "width", "height"])
    .where("lumber_measurement_id", "=", id)
    .orderBy("id")
    .execute();
  return {
    id,
    productId,
    product,
    planks,
    plankCount: totals.plankCount,
    volume: totals.volume,
    photo: { width: pkg.width, height: pkg.height },
  };
}

/**
 * Shares a record by public link as its owner would (app/models/public-link.server.ts) and gives
 * back the token and the public page's path.
 */
export async function sharePublicly(
  organizationId: number,
  kind: "measurement" | "storage",
  recordId: number,
  opts: { timeZone?: string } = {},
) {
  const { createPublicLink, publicLinkOf } = await import("~/models/public-link.server");
  await createPublicLink(db(), { organizationId, timeZone: opts.timeZone ?? "Europe/Tallinn" }, kind, recordId);
  const link = (await publicLinkOf(db(), { organizationId }, kind, recordId))!;
  return { token: link.token!, path: link.path! };
}

/**
 * A truck measurement with its loads (volumes computed by the model from app/domain/truck.ts);
 * two loads by default: 2.5 x 2.4 x 3 m at 0.68 and 2.0 x 2.4 x 3 m at 0.7.
 */
export async function createTruckMeasurement(
  organizationId: number,
  storageId: number,
  values: {
    plate?: string;
    takenAt?: Date;
    loads?: Array<{
      height: number;
      load_width: number;
      log_length: number;
      coefficient: number;
      load_bed_name?: string;
    }>;
    shipmentNumber?: string;
  } = {},
) {
  const { insertTruckMeasurement } = await import("~/models/truck.server");
  const id = await insertTruckMeasurement(
    db(),
    { organizationId },
    {
      storage_id: storageId,
      license_plate: values.plate ?? `ABC-${unique().slice(-3)}`,
      taken_at: values.takenAt ?? new Date(),
      shipment_number: values.shipmentNumber ?? null,
      loads: values.loads ?? [
        { height: 2.5, load_width: 2.4, log_length: 3, coefficient: 0.68, load_bed_name: "Truck" },
        { height: 2.0, load_width: 2.4, log_length: 3, coefficient: 0.7, load_bed_name: "Trailer" },
      ],
    },
  );
  return { id };
}

/** A route of a truck measurement with checkpoints one minute apart from its start. */
export async function createTruckRoute(
  organizationId: number,
  truckMeasurementId: number,
  values: { startedAt?: Date; finished?: boolean; points?: Array<[number, number]> } = {},
) {
  const startedAt = values.startedAt ?? new Date(Date.now() - 3600_000);
  const r = await db()
    .insertInto("truck_routes")
    .values({
      organization_id: organizationId,
      truck_measurement_id: truckMeasurementId,
      client_id: `route-${unique()}`,
      started_at: startedAt,
      finished_at: values.finished ? new Date(startedAt.getTime() + 3000_000) : null,
    })
    .executeTakeFirstOrThrow();
  const id = Number(r.insertId);
  const points = values.points ?? [];
  if (points.length) {
    const { addCheckpoints } = await import("~/models/truck-route.server");
    await addCheckpoints(
      db(),
      { organizationId },
      id,
      points.map(([latitude, longitude], i) => ({
        client_id: `cp-${id}-${i}`,
        latitude,
        longitude,
        recorded_at: new Date(startedAt.getTime() + (i + 1) * 60_000),
      })),
    );
  }
  return { id, startedAt };
}
