import type { User, UserUpdate } from "#db/schema";
import type { Language } from "~/i18n";
import type { DB } from "~/utils/db.server";

export async function getUserById(db: DB, id: number) {
  return db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function getUserByEmail(db: DB, email: string) {
  return db.selectFrom("users").selectAll().where("email", "=", email.trim().toLowerCase()).executeTakeFirst();
}

export async function updateAccountPreferences(
  db: DB,
  userId: number,
  changes: Pick<
    UserUpdate,
    | "name"
    | "time_zone"
    | "volume_unit"
    | "length_unit"
    | "diameter_unit"
    | "weight_unit"
    | "density_unit"
    | "rounding_precision"
    | "recent_measurement_mode"
  > & { locale?: Language },
) {
  if (Object.keys(changes).length === 0) return;
  await db
    .updateTable("users")
    .set({ ...changes, updated_at: new Date() })
    .where("id", "=", userId)
    .execute();
}

/** The account as GET /account answers it (never the password hash or the 2FA secret). */
export function serializeAccount(
  user: User,
  roles: Array<{ id: number; name: string; assignable_type: string; assignable_id: number }>,
) {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    locale: user.locale,
    verified_at: user.verified_at,
    verification_sent_at: user.verification_sent_at,
    time_zone: user.time_zone,
    volume_unit: user.volume_unit,
    length_unit: user.length_unit,
    reference_unit: user.reference_unit,
    weight_unit: user.weight_unit,
    density_unit: user.density_unit,
    diameter_unit: user.diameter_unit,
    lumber_plank_unit: user.lumber_plank_unit,
    rounding_precision: user.rounding_precision,
    recent_measurement_mode: user.recent_measurement_mode,
    recent_organization_id: user.recent_organization_id,
    password_expiry: user.password_expiry,
    otp_enabled: user.otp_enabled,
    roles: roles.map((r) => ({
      id: r.id,
      name: r.name,
      type: r.assignable_type,
      resource_id: r.assignable_id,
    })),
  };
}

/** The user passed the device-pairing screen (the access guard's devices_updated_at). */
export async function markSetupDone(db: DB, userId: number) {
  await db.updateTable("users").set({ devices_updated_at: new Date() }).where("id", "=", userId).execute();
}
