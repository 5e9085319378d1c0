import { randomInt } from "node:crypto";
import type { Device } from "#db/schema";
import type { DB } from "~/utils/db.server";
import { hashToken, randomToken } from "~/utils/token.server";
import { findFreeSeat } from "./billing.server";

/** The organisation a call acts for: an AuthContext, or a job's or webhook's own { organizationId }. */
type Org = { organizationId: number };

// The mobile app pairs with an organisation by its activation code and receives a device token
// (shown once; only its hash is kept). The token authenticates every /api/device call.

const CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"; // no 0/O, 1/I: read aloud and typed on phones

export function generateActivationCode(length = 8) {
  return Array.from({ length }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join("");
}

/** The organisation's activation code, created on first use. */
export async function ensureActivationCode(db: DB, ctx: Org): Promise<string> {
  const row = await db
    .selectFrom("organizations")
    .select("device_activation_code")
    .where("id", "=", ctx.organizationId)
    .executeTakeFirstOrThrow();
  if (row.device_activation_code) return row.device_activation_code;
  for (;;) {
    const code = generateActivationCode();
    try {
      await db
        .updateTable("organizations")
        .set({ device_activation_code: code })
        .where("id", "=", ctx.organizationId)
        .where("device_activation_code", "is", null)
        .execute();
      const again = await db
        .selectFrom("organizations")
        .select("device_activation_code")
        .where("id", "=", ctx.organizationId)
        .executeTakeFirstOrThrow();
      return again.device_activation_code!;
    } catch (error) {
      // A duplicate code (unique index) is astronomically rare: draw again.
      if (!(error instanceof Error) || !/Duplicate/.test(error.message)) throw error;
    }
  }
}

export class PairingError extends Error {
  constructor(public code: "invalid_activation_code" | "device_locked" | "no_free_device_seats") {
    super(code);
  }
}

/**
 * Pairs a device. The same hardware pairing again with the same organisation keeps its device
 * row (name, access) and gets a fresh token; the old token stops working.
 *
 * Seats (billing): a NEW device takes a seat in the first plan package with a free one (free =
 * quantity - linked, floor 0; see listDeviceSeats). Without a free seat it is refused with
 * PairingError("no_free_device_seats") (HTTP 402). Re-pairing a known device needs no new seat.
 */
export async function pairDevice(db: DB, input: { activationCode: string; hwId: string; name: string }) {
  const org = await db
    .selectFrom("organizations")
    .select(["id", "name"])
    .where("device_activation_code", "=", input.activationCode.trim().toUpperCase())
    .executeTakeFirst();
  if (!org) throw new PairingError("invalid_activation_code");
  const token = randomToken();
  return db.transaction().execute(async (trx) => {
    const existing = await trx
      .selectFrom("devices")
      .selectAll()
      .where("organization_id", "=", org.id)
      .where("hw_id", "=", input.hwId)
      .where("deleted_at", "is", null)
      .forUpdate()
      .executeTakeFirst();
    if (existing?.locked) throw new PairingError("device_locked");
    let deviceId: number;
    if (existing) {
      await trx
        .updateTable("devices")
        .set({ token_hash: hashToken(token) })
        .where("id", "=", existing.id)
        .execute();
      deviceId = existing.id;
    } else {
      // Serialise concurrent pairings of one organisation so two devices cannot take the last seat.
      await trx.selectFrom("organizations").select("id").where("id", "=", org.id).forUpdate().execute();
      const packageId = await findFreeSeat(trx, { organizationId: org.id });
      if (!packageId) throw new PairingError("no_free_device_seats");
      const r = await trx
        .insertInto("devices")
        .values({
          organization_id: org.id,
          name: input.name,
          hw_id: input.hwId,
          token_hash: hashToken(token),
          package_id: packageId,
        })
        .executeTakeFirstOrThrow();
      deviceId = Number(r.insertId);
    }
    return { token, deviceId, organization: org, created: !existing };
  });
}

export async function findDeviceByToken(db: DB, token: string | null): Promise<Device | undefined> {
  if (!token || token.length > 200) return undefined;
  return db
    .selectFrom("devices")
    .selectAll()
    .where("token_hash", "=", hashToken(token))
    .where("deleted_at", "is", null)
    .executeTakeFirst();
}

/** Storages the device may upload into: all of the organisation's, or its chosen ones. */
export async function deviceStorageIds(
  db: DB,
  device: Pick<Device, "id" | "organization_id" | "all_storages">,
): Promise<number[]> {
  const query = device.all_storages
    ? db
        .selectFrom("storages")
        .select("id")
        .where("organization_id", "=", device.organization_id)
        .where("deleted_at", "is", null)
    : db
        .selectFrom("device_storages")
        .innerJoin("storages", "storages.id", "device_storages.storage_id")
        .select("storages.id")
        .where("device_storages.device_id", "=", device.id)
        .where("storages.deleted_at", "is", null);
  return (await query.execute()).map((r) => r.id);
}

export async function touchDevice(db: DB, deviceId: number) {
  await db.updateTable("devices").set({ last_used: new Date() }).where("id", "=", deviceId).execute();
}
