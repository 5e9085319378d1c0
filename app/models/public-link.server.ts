import { sql, type Transaction } from "kysely";
import type { Database, PublicLink } from "#db/schema";
import { billOfLadingExists, canEditContainers, containerExists } from "~/models/container.server";
import { canEditIn } from "~/models/measurement-kind.server";
import { canEditMixedStackReports, mixedStackReportExists } from "~/models/mixed-stack-report.server";
import type { AuthContext } from "~/utils/auth-context";
import type { DB } from "~/utils/db.server";
import { ForbiddenError, NotFoundError } from "~/utils/errors";
import { hashPublicToken, newPublicTokenSeed, publicTokenOf, storedPublicToken } from "~/utils/public-token.server";

// Public links: the one token mechanism of every public page (docs/decisions/013-public-links.md).
// A link grants one record of one kind read-only to whoever holds its token. This module keeps
// the links (make, show again, rotate, stop, find by token); the public routes reach it through
// app/utils/public-route.server.ts, and each kind's public page reads its record through the
// grant (app/models/public-<kind>.server.ts).
//
// A new kind (container, bill of lading, mixed stack report) is one entry in PUBLIC_KINDS: how to
// tell that the record is live, who may share it, and the path of its public page.

type Executor = DB | Transaction<Database>;
type OrgCtx = Pick<AuthContext, "organizationId">;
/** Who shares: the signed-in context (role checks, and the organisation's public page form). */
export type SharerCtx = Pick<AuthContext, "organizationId" | "roles" | "isAdmin"> & {
  organization: { vmu_enabled: boolean };
};

export interface PublicKindPlug {
  /** The record is live and belongs to the organisation (only such a record can be shared or opened). */
  exists(db: Executor, organizationId: number, recordId: number): Promise<boolean>;
  /** The caller may make, rotate and stop links of this (existing) record. */
  mayShare(db: Executor, ctx: SharerCtx, recordId: number): Promise<boolean>;
  /** The path of the public page a token opens, in the organisation's form. */
  path(token: string, organization: { vmu_enabled: boolean }): string;
}

const found = (row: unknown) => row !== undefined;

export const PUBLIC_KINDS = {
  /** A timber measurement: /public_measurement/{token}, /vmu_public/{token} for vmu organisations. */
  measurement: {
    exists: async (db, organizationId, id) =>
      found(
        await db
          .selectFrom("measurements")
          .select("id")
          .where("id", "=", id)
          .where("organization_id", "=", organizationId)
          .where("deleted_at", "is", null)
          .executeTakeFirst(),
      ),
    // Sharing is editing's right: measurer, admin or super_admin on the measurement's storage.
    mayShare: async (db, ctx, id) => {
      const m = await db
        .selectFrom("measurements")
        .select("storage_id")
        .where("id", "=", id)
        .where("organization_id", "=", ctx.organizationId)
        .executeTakeFirst();
      return m ? canEditIn(db, ctx, m) : false;
    },
    path: (token, organization) => (organization.vmu_enabled ? `/vmu_public/${token}` : `/public_measurement/${token}`),
  },
  /** A storage and its measurements' figures: /public_storage/{token}. Admins share storages. */
  storage: {
    exists: async (db, organizationId, id) =>
      found(
        await db
          .selectFrom("storages")
          .select("id")
          .where("id", "=", id)
          .where("organization_id", "=", organizationId)
          .where("deleted_at", "is", null)
          .executeTakeFirst(),
      ),
    mayShare: async (_db, ctx) => ctx.isAdmin,
    path: (token) => `/public_storage/${token}`,
  },
  /** A mixed stack report: /mixed_stack_report/public/{token}. Those who may edit reports share them. */
  mixed_stack_report: {
    exists: (db, organizationId, id) => mixedStackReportExists(db, organizationId, id),
    mayShare: async (_db, ctx) => canEditMixedStackReports(ctx),
    path: (token) => `/mixed_stack_report/public/${token}`,
  },
  /** A container and its measurements: /public_container/{token}. Those who may edit containers share them. */
  container: {
    exists: (db, organizationId, id) => containerExists(db, organizationId, id),
    mayShare: async (_db, ctx) => canEditContainers(ctx),
    path: (token) => `/public_container/${token}`,
  },
  /** A bill of lading and its containers: /public_bill_of_lading/{token}. */
  bill_of_lading: {
    exists: (db, organizationId, id) => billOfLadingExists(db, organizationId, id),
    mayShare: async (_db, ctx) => canEditContainers(ctx),
    path: (token) => `/public_bill_of_lading/${token}`,
  },
} satisfies Record<string, PublicKindPlug>;

export type PublicKind = keyof typeof PUBLIC_KINDS;

export function isPublicKind(value: unknown): value is PublicKind {
  return typeof value === "string" && Object.hasOwn(PUBLIC_KINDS, value);
}

/** What the owner sees of a link. `token` and `path` are null when the token cannot be shown again. */
export interface PublicLinkInfo {
  token: string | null;
  path: string | null;
  createdAt: Date;
  rotatedAt: Date | null;
  lastOpenedAt: Date | null;
}

function infoOf(kind: PublicKind, link: PublicLink, organization: { vmu_enabled: boolean }): PublicLinkInfo {
  const token = storedPublicToken(link);
  return {
    token,
    path: token ? PUBLIC_KINDS[kind].path(token, organization) : null,
    createdAt: link.created_at,
    rotatedAt: link.rotated_at,
    lastOpenedAt: link.last_opened_at,
  };
}

async function organizationForm(db: Executor, organizationId: number) {
  return db
    .selectFrom("organizations")
    .select("vmu_enabled")
    .where("id", "=", organizationId)
    .executeTakeFirstOrThrow();
}

function linkRow(db: Executor, ctx: OrgCtx, kind: PublicKind, recordId: number) {
  return db
    .selectFrom("public_links")
    .selectAll()
    .where("organization_id", "=", ctx.organizationId)
    .where("kind", "=", kind)
    .where("record_id", "=", recordId);
}

/** The record's link, or null when it is not shared. */
export async function publicLinkOf(
  db: Executor,
  ctx: OrgCtx & { organization?: { vmu_enabled: boolean } },
  kind: PublicKind,
  recordId: number,
): Promise<PublicLinkInfo | null> {
  const link = await linkRow(db, ctx, kind, recordId).executeTakeFirst();
  if (!link) return null;
  return infoOf(kind, link, ctx.organization ?? (await organizationForm(db, ctx.organizationId)));
}

/** The links of the organisation's records of one kind (all of them, or those ids), by record id. */
export async function publicLinksOf(
  db: Executor,
  ctx: OrgCtx & { organization: { vmu_enabled: boolean } },
  kind: PublicKind,
  recordIds?: number[],
): Promise<Map<number, PublicLinkInfo>> {
  if (recordIds && recordIds.length === 0) return new Map();
  let q = db
    .selectFrom("public_links")
    .selectAll()
    .where("organization_id", "=", ctx.organizationId)
    .where("kind", "=", kind);
  if (recordIds) q = q.where("record_id", "in", recordIds);
  const rows = await q.execute();
  return new Map(rows.map((r) => [r.record_id, infoOf(kind, r, ctx.organization)]));
}

/**
 * The spec's `token` field of the organisation's records of one kind (all, or those ids): the
 * token of each shared record whose token can be shown, by record id.
 */
export async function publicTokensOf(db: Executor, ctx: OrgCtx, kind: PublicKind, recordIds?: number[]) {
  if (recordIds && recordIds.length === 0) return new Map<number, string>();
  let q = db
    .selectFrom("public_links")
    .select(["record_id", "token_seed", "token_hash"])
    .where("organization_id", "=", ctx.organizationId)
    .where("kind", "=", kind);
  if (recordIds) q = q.where("record_id", "in", recordIds);
  const tokens = new Map<number, string>();
  for (const row of await q.execute()) {
    const token = storedPublicToken(row);
    if (token) tokens.set(row.record_id, token);
  }
  return tokens;
}

/** 404 for a record that is not the organisation's live one, 403 for a caller who may not share it. */
export async function requireMayShare(db: Executor, ctx: SharerCtx, kind: PublicKind, recordId: number) {
  const plug: PublicKindPlug = PUBLIC_KINDS[kind];
  if (!(await plug.exists(db, ctx.organizationId, recordId))) throw new NotFoundError();
  if (!(await plug.mayShare(db, ctx, recordId))) throw new ForbiddenError();
}

type Maker = OrgCtx & { userId?: number | null; timeZone?: string | null };

/**
 * Shares the record: a new link, or the one it already has (making twice gives one link). The
 * caller has checked requireMayShare (or is making the record itself, as a new storage is).
 */
export async function createPublicLink(db: Executor, ctx: Maker, kind: PublicKind, recordId: number) {
  const seed = newPublicTokenSeed();
  await sql`
    INSERT INTO public_links (organization_id, kind, record_id, token_hash, token_seed, time_zone, created_by)
    VALUES (${ctx.organizationId}, ${kind}, ${recordId}, ${hashPublicToken(publicTokenOf(seed))}, ${seed},
            ${ctx.timeZone ?? "UTC"}, ${ctx.userId ?? null})
    ON DUPLICATE KEY UPDATE id = id
  `.execute(db);
}

/**
 * A new token for the record's link (made if it had none): the old token stops opening anything
 * at once, since only the new one's hash is kept.
 */
export async function rotatePublicLink(db: Executor, ctx: Maker, kind: PublicKind, recordId: number) {
  const seed = newPublicTokenSeed();
  const hash = hashPublicToken(publicTokenOf(seed));
  const now = new Date();
  await sql`
    INSERT INTO public_links (organization_id, kind, record_id, token_hash, token_seed, time_zone, created_by)
    VALUES (${ctx.organizationId}, ${kind}, ${recordId}, ${hash}, ${seed}, ${ctx.timeZone ?? "UTC"},
            ${ctx.userId ?? null})
    ON DUPLICATE KEY UPDATE token_hash = ${hash}, token_seed = ${seed}, time_zone = ${ctx.timeZone ?? "UTC"},
      rotated_at = ${now}, last_opened_at = NULL
  `.execute(db);
}

/** Stops sharing the record: its token opens nothing any more. */
export async function deletePublicLink(db: Executor, ctx: OrgCtx, kind: PublicKind, recordId: number) {
  await db
    .deleteFrom("public_links")
    .where("organization_id", "=", ctx.organizationId)
    .where("kind", "=", kind)
    .where("record_id", "=", recordId)
    .execute();
}

/** What a valid token grants: one record of one kind of one organisation, read-only. */
export interface PublicGrant {
  linkId: number;
  kind: PublicKind;
  recordId: number;
  organizationId: number;
  /** The only organisation data a public page shows. */
  organizationName: string;
  vmuEnabled: boolean;
  /** The sharer's time zone, in which the page shows times. */
  timeZone: string;
}

/**
 * The grant of a token, or null. Every token costs the same work whether it is valid, rotated,
 * unknown or malformed: one SHA-256 and one lookup of the hash by its unique index (a hash
 * leaks nothing of how close a guess came).
 */
export async function resolvePublicToken(db: Executor, token: string): Promise<PublicGrant | null> {
  const row = await db
    .selectFrom("public_links as l")
    .innerJoin("organizations as o", "o.id", "l.organization_id")
    .select([
      "l.id",
      "l.kind",
      "l.record_id",
      "l.organization_id",
      "l.time_zone",
      "o.name as organization_name",
      "o.vmu_enabled",
    ])
    .where("l.token_hash", "=", hashPublicToken(token))
    .executeTakeFirst();
  if (!row || !isPublicKind(row.kind)) return null;
  return {
    linkId: row.id,
    kind: row.kind,
    recordId: row.record_id,
    organizationId: row.organization_id,
    organizationName: row.organization_name,
    vmuEnabled: row.vmu_enabled,
    timeZone: row.time_zone,
  };
}

/** Notes that the link was opened (at most one write a minute per link). */
export async function notePublicLinkOpened(db: Executor, linkId: number, now = new Date()) {
  await db
    .updateTable("public_links")
    .set({ last_opened_at: now })
    .where("id", "=", linkId)
    .where((eb) =>
      eb.or([eb("last_opened_at", "is", null), eb("last_opened_at", "<", new Date(now.getTime() - 60_000))]),
    )
    .execute();
}
