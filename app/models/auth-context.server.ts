import type { Organization, Role, User } from "#db/schema";
import type { DB } from "~/utils/db.server";
import { hashToken } from "~/utils/token.server";
import { MAX_TOKEN_LENGTH } from "./session.server";
import type { CompiledQuery } from "kysely";

// Every signed-in request needs its session, the user, their organisations, the current one and
// their roles in it. Read in one plain join (session → user → roles → organisations, one row per
// role): it was five queries, then one query of correlated JSON subqueries that cost ~2 ms of
// every call's floor; this join costs about 0.5 ms (docs/decisions/027).

const ORGANIZATION_COLUMNS = [
  "id",
  "name",
  "registration_code",
  "country",
  "city",
  "address",
  "postal_code",
  "vat_code",
  "invoice_email",
  "default_storage_id",
  "currency",
  "contact_person",
  "phone",
  "token",
  "features",
  "device_activation_code",
  "cmpc_enabled",
  "vmu_enabled",
  "created_at",
  "updated_at",
] as const satisfies ReadonlyArray<keyof Organization>;

const ROLE_COLUMNS = ["id", "organization_id", "name", "assignable_type", "assignable_id", "created_at"] as const;

export interface SignedInRows {
  user: User;
  organizations: Array<{ id: number; name: string }>;
  organization: Organization | null;
  roles: Role[];
}

type Row = Record<string, unknown>;

function signedInQuery(db: DB) {
  return db
    .selectFrom("users as u")
    .leftJoin("roles as r", "r.user_id", "u.id")
    .leftJoin("organizations as o", "o.id", "r.organization_id")
    .selectAll("u")
    .select(ORGANIZATION_COLUMNS.map((c) => `o.${c} as org__${c}` as const))
    .select(ROLE_COLUMNS.map((c) => `r.${c} as role__${c}` as const))
    .orderBy("o.name")
    .orderBy("o.id")
    .orderBy("r.id");
}

/**
 * The rows in the shape the context wants. Rows come ordered by organisation name and id, then
 * role id. The current organisation is the user's recent one while they still belong to it, else
 * the first by name.
 */
function assemble(rows: Row[]): SignedInRows {
  const user: Row = {};
  for (const [key, value] of Object.entries(rows[0])) {
    if (!key.startsWith("org__") && !key.startsWith("role__") && !key.startsWith("session__")) user[key] = value;
  }
  const memberships = rows.filter((row) => row.role__id !== null && row.org__id !== null);
  const organizations: SignedInRows["organizations"] = [];
  for (const row of memberships) {
    const id = Number(row.org__id);
    if (organizations[organizations.length - 1]?.id !== id) organizations.push({ id, name: String(row.org__name) });
  }
  const currentId = organizations.some((o) => o.id === user.recent_organization_id)
    ? Number(user.recent_organization_id)
    : organizations[0]?.id;
  const current = memberships.filter((row) => Number(row.org__id) === currentId);
  let organization: Organization | null = null;
  if (current.length > 0) {
    const org: Row = {};
    for (const c of ORGANIZATION_COLUMNS) org[c] = current[0][`org__${c}`];
    if (typeof org.features === "string") org.features = JSON.parse(org.features);
    organization = org as unknown as Organization;
  }
  const roles = current
    .map((row) => {
      const role: Row = { user_id: user.id };
      for (const c of ROLE_COLUMNS) role[c] = row[`role__${c}`];
      return role as unknown as Role;
    })
    .sort((a, b) => a.id - b.id);
  return { user: user as unknown as User, organizations, organization, roles };
}

export async function loadSignedInRows(db: DB, userId: number): Promise<SignedInRows | null> {
  const rows = (await signedInQuery(db).where("u.id", "=", userId).execute()) as Row[];
  return rows.length ? assemble(rows) : null;
}

export type SignedInLookup =
  | { status: "valid"; sessionId: number; userId: number; rows: SignedInRows }
  | { status: "expired" }
  | { status: "invalid" };

// Compiled once per database handle: building this query costs more CPU than running it.
const bySessionQueries = new WeakMap<DB, CompiledQuery<Row>>();
function bySessionQuery(db: DB) {
  let query = bySessionQueries.get(db);
  if (!query) {
    query = signedInQuery(db)
      .innerJoin("sessions as s", "s.user_id", "u.id")
      .select(["s.id as session__id", "s.expires_at as session__expires_at", "s.revoked_at as session__revoked_at"])
      .where("s.token_hash", "=", "")
      .compile() as CompiledQuery<Row>;
    if (query.parameters.length !== 1) throw new Error("the session query must take the token hash alone");
    bySessionQueries.set(db, query);
  }
  return query;
}

/**
 * A session token's session with its user's rows, in one round trip; the same answers as
 * `findSession` (invalid: unknown or revoked; expired: past its expiry).
 */
export async function findSignedIn(
  db: DB,
  token: string | null | undefined,
  now = new Date(),
): Promise<SignedInLookup> {
  if (!token || token.length > MAX_TOKEN_LENGTH) return { status: "invalid" };
  const query = bySessionQuery(db);
  const { rows } = await db.executeQuery<Row>({ ...query, parameters: [hashToken(token)] });
  if (!rows.length || rows[0].session__revoked_at) return { status: "invalid" };
  if ((rows[0].session__expires_at as Date).getTime() <= now.getTime()) return { status: "expired" };
  const assembled = assemble(rows);
  return {
    status: "valid",
    sessionId: Number(rows[0].session__id),
    userId: Number(assembled.user.id),
    rows: assembled,
  };
}
