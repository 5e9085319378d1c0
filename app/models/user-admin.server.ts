import type { AssignableType, RoleName } from "#db/schema";
import { appLink, sendAccountMail } from "~/services/account-mail.server";
import type { AuthContext } from "~/utils/auth-context";
import type { DB } from "~/utils/db.server";
import { consumeUserToken, createUserToken, findUserToken, revokeOrganizationTokens } from "./user-token.server";
import { getUserByEmail } from "./user.server";

// The organisation's users as admins see them. A user belongs to an organisation through any
// role in it; another organisation's user answers 404 (undefined here).
type Ctx = Pick<AuthContext, "organizationId" | "userId">;

export async function listOrganizationUsers(db: DB, ctx: Ctx, opts: { q?: string } = {}) {
  let query = db
    .selectFrom("users")
    .select([
      "users.id",
      "users.email",
      "users.name",
      "users.time_zone",
      "users.volume_unit",
      "users.rounding_precision",
      "users.verified_at",
    ])
    .where("users.id", "in", (eb) =>
      eb.selectFrom("roles").select("user_id").where("organization_id", "=", ctx.organizationId),
    );
  if (opts.q?.trim())
    query = query.where("users.email", "like", `%${opts.q.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  const users = await query.orderBy("users.email").execute();
  const roles = users.length
    ? await db
        .selectFrom("roles")
        .select(["id", "name", "assignable_type", "assignable_id", "user_id"])
        .where("organization_id", "=", ctx.organizationId)
        .where(
          "user_id",
          "in",
          users.map((u) => u.id),
        )
        .orderBy("id")
        .execute()
    : [];
  return users.map((u) => ({ ...u, roles: roles.filter((r) => r.user_id === u.id) }));
}

export async function getOrganizationUser(db: DB, ctx: Ctx, userId: number) {
  const [user] = await listOrganizationUsersByIds(db, ctx, [userId]);
  return user;
}

async function listOrganizationUsersByIds(db: DB, ctx: Ctx, ids: number[]) {
  const all = await db
    .selectFrom("users")
    .select([
      "users.id",
      "users.email",
      "users.name",
      "users.time_zone",
      "users.volume_unit",
      "users.rounding_precision",
      "users.verified_at",
    ])
    .where("users.id", "in", ids)
    .where("users.id", "in", (eb) =>
      eb.selectFrom("roles").select("user_id").where("organization_id", "=", ctx.organizationId),
    )
    .execute();
  const roles = all.length
    ? await db
        .selectFrom("roles")
        .select(["id", "name", "assignable_type", "assignable_id", "user_id"])
        .where("organization_id", "=", ctx.organizationId)
        .where("user_id", "in", ids)
        .orderBy("id")
        .execute()
    : [];
  return all.map((u) => ({ ...u, roles: roles.filter((r) => r.user_id === u.id) }));
}

export type OrganizationUser = NonNullable<Awaited<ReturnType<typeof getOrganizationUser>>>;

export function serializeAdminUser(u: OrganizationUser) {
  return {
    id: u.id,
    email: u.email,
    name: u.name,
    time_zone: u.time_zone,
    volume_unit: u.volume_unit,
    rounding_precision: u.rounding_precision,
    roles: u.roles.map((r) => ({
      id: r.id,
      name: r.name,
      assignable_type: r.assignable_type,
      assignable_id: r.assignable_id,
    })),
  };
}

/** One's own name only: the profile is the person's, shared by every organisation they are in. */
export async function renameUser(db: DB, ctx: Ctx, userId: number, name: string) {
  if (userId !== ctx.userId || !(await getOrganizationUser(db, ctx, userId))) return false;
  await db.updateTable("users").set({ name, updated_at: new Date() }).where("id", "=", userId).execute();
  return true;
}

/**
 * Removes the user from the organisation (their roles here, their devices' link to them). An
 * account left in no organisation is deleted with its sessions and tokens.
 */
export async function removeUser(db: DB, ctx: Ctx, userId: number) {
  if (!(await getOrganizationUser(db, ctx, userId))) return false;
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom("roles")
      .where("user_id", "=", userId)
      .where("organization_id", "=", ctx.organizationId)
      .execute();
    await trx
      .updateTable("devices")
      .set({ user_id: null })
      .where("user_id", "=", userId)
      .where("organization_id", "=", ctx.organizationId)
      .execute();
    const left = await trx.selectFrom("roles").select("id").where("user_id", "=", userId).executeTakeFirst();
    if (!left) {
      await trx.deleteFrom("sessions").where("user_id", "=", userId).execute();
      await trx.deleteFrom("users").where("id", "=", userId).execute();
    } else {
      await trx
        .updateTable("users")
        .set({ recent_organization_id: null })
        .where("id", "=", userId)
        .where("recent_organization_id", "=", ctx.organizationId)
        .execute();
    }
  });
  return true;
}

export class UserExistsError extends Error {}

/**
 * Invites by e-mail with the viewer role on the organisation (admins add more roles after).
 * A new address gets an account and a 7-day link to set a password. An account that already
 * exists (it belongs to someone, maybe in another organisation) is only asked: a 7-day link to
 * accept or decline, and the membership appears when it is accepted (acceptMembership).
 * A member already here is refused.
 */
export async function inviteUser(db: DB, ctx: Ctx & { organizationName: string }, email: string) {
  const existing = await getUserByEmail(db, email);
  if (existing && (await getOrganizationUser(db, ctx, existing.id))) throw new UserExistsError();
  const elsewhere =
    existing &&
    (existing.password_hash ||
      (await db.selectFrom("roles").select("id").where("user_id", "=", existing.id).executeTakeFirst()));
  if (existing && elsewhere) {
    await revokeOrganizationTokens(db, existing.id, "membership", ctx.organizationId);
    const token = await createUserToken(db, {
      userId: existing.id,
      purpose: "membership",
      organizationId: ctx.organizationId,
    });
    await sendAccountMail("membership", existing.email, existing.locale, {
      link: appLink(`/join/${token}`),
      organization: ctx.organizationName,
    });
    return { userId: existing.id, created: false, pending: true };
  }
  let userId = existing?.id;
  if (!userId) {
    const r = await db
      .insertInto("users")
      .values({ email, recent_organization_id: ctx.organizationId })
      .executeTakeFirstOrThrow();
    userId = Number(r.insertId);
  }
  await addViewerRole(db, userId, ctx.organizationId);
  // Only this organisation's earlier link is replaced; another organisation's stays valid.
  await revokeOrganizationTokens(db, userId, "invitation", ctx.organizationId);
  const token = await createUserToken(db, { userId, purpose: "invitation", organizationId: ctx.organizationId });
  const inviter = await db.selectFrom("users").select("locale").where("id", "=", ctx.userId).executeTakeFirst();
  await sendAccountMail("invitation", email, inviter?.locale ?? "en", {
    link: appLink(`/accept_invitation/${token}`),
    organization: ctx.organizationName,
  });
  return { userId, created: true, pending: false };
}

function addViewerRole(db: DB, userId: number, organizationId: number) {
  return db
    .insertInto("roles")
    .values({
      user_id: userId,
      organization_id: organizationId,
      name: "viewer",
      assignable_type: "Organization",
      assignable_id: organizationId,
    })
    .execute();
}

/** The organisation an invitation to an existing account is from (null: no live link). */
export async function findMembershipInvitation(db: DB, token: string | undefined) {
  const row = await findUserToken(db, token, "membership");
  if (!row?.organization_id) return null;
  const organization = await db
    .selectFrom("organizations")
    .select(["id", "name"])
    .where("id", "=", row.organization_id)
    .executeTakeFirst();
  return organization ? { userId: row.user_id, organization } : null;
}

/**
 * The invited account's answer: accepting makes it a viewer of the organisation (once, even if
 * the link is used twice at the same moment); declining only uses the link up. False: no live link.
 */
export async function answerMembershipInvitation(db: DB, token: string | undefined, accept: boolean) {
  const row = await consumeUserToken(db, token, "membership");
  if (!row?.organization_id) return false;
  if (accept) {
    const ctx = { organizationId: row.organization_id, userId: row.user_id };
    if (!(await getOrganizationUser(db, ctx, row.user_id))) await addViewerRole(db, row.user_id, row.organization_id);
  }
  return true;
}

export class RoleRuleError extends Error {
  constructor(public code: "OWN_ROLES" | "NOT_FOUND") {
    super(code);
  }
}

async function resourceExists(db: DB, ctx: Ctx, type: AssignableType, id: number) {
  if (type === "Organization") return id === ctx.organizationId;
  const table = type === "Storage" ? "storages" : "storage_groups";
  const row = await db
    .selectFrom(table)
    .select("id")
    .where("id", "=", id)
    .where("organization_id", "=", ctx.organizationId)
    .executeTakeFirst();
  return !!row;
}

/** Assigns a role; no one changes their own roles. The same role twice answers the existing row. */
export async function assignRole(
  db: DB,
  ctx: Ctx,
  input: { name: RoleName; userId: number; type: AssignableType; resourceId: number },
) {
  if (input.userId === ctx.userId) throw new RoleRuleError("OWN_ROLES");
  if (
    !(await getOrganizationUser(db, ctx, input.userId)) ||
    !(await resourceExists(db, ctx, input.type, input.resourceId))
  )
    throw new RoleRuleError("NOT_FOUND");
  const find = () =>
    db
      .selectFrom("roles")
      .select(["id", "name", "assignable_type", "assignable_id", "user_id"])
      .where("user_id", "=", input.userId)
      .where("organization_id", "=", ctx.organizationId)
      .where("name", "=", input.name)
      .where("assignable_type", "=", input.type)
      .where("assignable_id", "=", input.resourceId)
      .executeTakeFirst();
  const existing = await find();
  if (existing) return existing;
  await db
    .insertInto("roles")
    .values({
      user_id: input.userId,
      organization_id: ctx.organizationId,
      name: input.name,
      assignable_type: input.type,
      assignable_id: input.resourceId,
    })
    .execute();
  return (await find())!;
}

export async function removeRole(db: DB, ctx: Ctx, roleId: number) {
  const role = await db
    .selectFrom("roles")
    .select(["id", "user_id"])
    .where("id", "=", roleId)
    .where("organization_id", "=", ctx.organizationId)
    .executeTakeFirst();
  if (!role) throw new RoleRuleError("NOT_FOUND");
  if (role.user_id === ctx.userId) throw new RoleRuleError("OWN_ROLES");
  await db.deleteFrom("roles").where("id", "=", roleId).execute();
}

export async function listStorageGroups(db: DB, ctx: Ctx) {
  return db
    .selectFrom("storage_groups")
    .select(["id", "name"])
    .where("organization_id", "=", ctx.organizationId)
    .orderBy("name")
    .execute();
}
