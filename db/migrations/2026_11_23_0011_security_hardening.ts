import type { Kysely } from "kysely";

// Two-factor is switched on only with a code from the authenticator app: until then the new
// secret waits here (README "Security").
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("users").addColumn("otp_pending_secret", "varchar(64)").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("otp_pending_secret").execute();
}
