import { listHistory, verifyHistoryChain } from "~/models/measurement-history.server";
import { getPhotoFingerprint, type MeasurementKind } from "~/models/measurement-kind.server";
import { fileStorage } from "~/services/file-storage.server";
import { verifyOriginalPhoto } from "~/services/photos.server";
import type { AuthContext } from "~/utils/auth-context";
import { db } from "~/utils/db.server";

// What every kind's detail page shows as proof (docs/decisions/024-trust.md), on the kind seam:
// the History panel with its hash chain, and the original photo's fingerprint. Both verify
// actions are GETs of the detail page (?verify=1 for the photo, ?verify_history=1 for the
// chain), so they work without JavaScript. The page has checked the measurement is the caller's.

export async function loadMeasurementTrust(
  ctx: Pick<AuthContext, "organizationId">,
  kind: MeasurementKind,
  id: number,
  url: URL,
) {
  const [history, chain, photo, verification] = await Promise.all([
    listHistory(db(), ctx, kind, id),
    url.searchParams.get("verify_history") === "1" ? verifyHistoryChain(db(), ctx, kind, id) : Promise.resolve(null),
    getPhotoFingerprint(db(), ctx, kind, id),
    url.searchParams.get("verify") === "1"
      ? verifyOriginalPhoto(db(), fileStorage(), ctx, kind, id)
      : Promise.resolve(undefined),
  ]);
  return {
    kind,
    history,
    chain,
    photo: photo ? { sha256: photo.sha256, verification: verification ?? null } : null,
  };
}

export type MeasurementTrustData = Awaited<ReturnType<typeof loadMeasurementTrust>>;
