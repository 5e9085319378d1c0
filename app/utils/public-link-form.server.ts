import {
  createPublicLink,
  deletePublicLink,
  publicLinkOf,
  PUBLIC_KINDS,
  requireMayShare,
  rotatePublicLink,
  type PublicKind,
  type PublicKindPlug,
} from "~/models/public-link.server";
import { db } from "./db.server";
import { ForbiddenError, NotFoundError, notFound } from "./errors";
import { redirectWithToast } from "./toast.server";
import type { AuthContext } from "./auth-context";

// The owner's side of public links on the screens (the measurement detail page's public-link
// dialog, the storage page, the dashboard's row menu): what a screen shows of a record's link,
// and its three form posts, the same for every kind.

export const PUBLIC_LINK_INTENTS = ["public-link-create", "public-link-rotate", "public-link-stop"] as const;
export type PublicLinkIntent = (typeof PUBLIC_LINK_INTENTS)[number];

export function isPublicLinkIntent(value: unknown): value is PublicLinkIntent {
  return (PUBLIC_LINK_INTENTS as readonly unknown[]).includes(value);
}

/** What a screen shows of a record's link. */
export interface PublicLinkScreen {
  /** The whole address to copy and send (the app's origin and the page's path); null when none can be shown. */
  url: string | null;
  /** The record has a link (it may be one that cannot be shown again: then `url` is null). */
  shared: boolean;
  lastOpenedAt: Date | null;
  rotatedAt: Date | null;
  /** The caller may make, rotate and stop it. */
  canShare: boolean;
  /** The organisation's public form is the metrology one (/vmu_public). */
  vmu: boolean;
}

export async function publicLinkForScreen(
  ctx: AuthContext,
  kind: PublicKind,
  recordId: number,
  origin: string,
): Promise<PublicLinkScreen> {
  const plug: PublicKindPlug = PUBLIC_KINDS[kind];
  const [link, canShare] = await Promise.all([
    publicLinkOf(db(), ctx, kind, recordId),
    plug.mayShare(db(), ctx, recordId),
  ]);
  return {
    url: link?.path ? `${origin}${link.path}` : null,
    shared: link !== null,
    lastOpenedAt: link?.lastOpenedAt ?? null,
    rotatedAt: link?.rotatedAt ?? null,
    canShare,
    vmu: ctx.organization.vmu_enabled,
  };
}

/**
 * A public-link form post: create (or, for a link that cannot be shown again, replace), rotate
 * or stop, then back to `back` with a toast. 404 for a record that is not the caller's
 * organisation's, a warning toast for a caller who may not share it.
 */
export async function publicLinkAction(
  ctx: AuthContext,
  kind: PublicKind,
  recordId: number,
  intent: PublicLinkIntent,
  back: string,
) {
  try {
    await requireMayShare(db(), ctx, kind, recordId);
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    if (error instanceof ForbiddenError)
      return redirectWithToast(back, { type: "warning", key: "public:link.mayNotShare" });
    throw error;
  }
  const maker = { organizationId: ctx.organizationId, userId: ctx.userId, timeZone: ctx.user.time_zone };
  switch (intent) {
    case "public-link-create": {
      const link = await publicLinkOf(db(), ctx, kind, recordId);
      // A link kept from before links could be shown again is replaced by one that can be copied.
      if (link && !link.token) await rotatePublicLink(db(), maker, kind, recordId);
      else await createPublicLink(db(), maker, kind, recordId);
      return redirectWithToast(back, { type: "success", key: "public:link.created" });
    }
    case "public-link-rotate":
      await rotatePublicLink(db(), maker, kind, recordId);
      return redirectWithToast(back, { type: "success", key: "public:link.rotated" });
    case "public-link-stop":
      await deletePublicLink(db(), ctx, kind, recordId);
      return redirectWithToast(back, { type: "success", key: "public:link.stopped" });
  }
}
