import { redirect } from "@remix-run/node";
import type { AuthContext } from "./auth.server";
import { db } from "./db.server";

/**
 * The access guard of the shell (accounts.md "Access guard"): an unverified account goes to
 * /verification; a user with no devices (none linked in the organisation) and no
 * devices_updated_at (never passed the setup screen) goes to /setup.
 */
export async function requireAppAccess(ctx: AuthContext) {
  if (!ctx.user.verified_at) throw redirect("/verification");
  if (!ctx.user.devices_updated_at) {
    const row = await db()
      .selectFrom("devices")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("organization_id", "=", ctx.organizationId)
      .where("deleted_at", "is", null)
      .executeTakeFirstOrThrow();
    if (Number(row.n) === 0) throw redirect("/setup");
  }
}
