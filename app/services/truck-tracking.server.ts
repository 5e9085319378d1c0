import type { NewCheckpoint } from "~/models/truck-route.server";
import { publish } from "~/services/realtime.server";

// The live truck map's feed: every stored checkpoint is published as `checkpoint-created` on the
// organisation's channel (Ably when configured, the built-in SSE otherwise), oldest first, so the
// marker ends at the newest position.
export async function publishCheckpoints(organizationId: number, checkpoints: NewCheckpoint[]) {
  for (const c of checkpoints)
    await publish(`organization:${organizationId}`, "checkpoint-created", {
      checkpoint: {
        id: c.id,
        truck_route_id: c.truck_route_id,
        latitude: c.latitude,
        longitude: c.longitude,
        recorded_at: c.recorded_at.toISOString(),
      },
    });
}
