import { sql } from "kysely";
import type { DB } from "~/utils/db.server";

// Requests to the public routes per client address, counted in MySQL so that every web process
// (issue 25 runs several behind one balancer) adds to the same count: a fixed one-minute window
// per address, one atomic statement per request. docs/decisions/013-public-links.md says why.

export const RATE_WINDOW_SECONDS = 60;

export interface RateCount {
  allowed: boolean;
  hits: number;
  /** Seconds until the window ends (the Retry-After of a refusal). */
  retryAfter: number;
}

/**
 * Counts one request of `client` and says whether it is within `limit` per window. The insert
 * either starts the window's row at 1 or adds 1 and hands the new count back through
 * LAST_INSERT_ID(expr), so the count is read in the same statement that makes it: two
 * processes can never both see the same number.
 */
export async function countPublicRequest(db: DB, client: string, limit: number, now = new Date()): Promise<RateCount> {
  const seconds = Math.floor(now.getTime() / 1000);
  const window = Math.floor(seconds / RATE_WINDOW_SECONDS);
  const result = await sql`
    INSERT INTO public_rate_limits (client, window_start, hits) VALUES (${client}, ${window}, 1)
    ON DUPLICATE KEY UPDATE hits = LAST_INSERT_ID(hits + 1)
  `.execute(db);
  // A new row reports no insert id (the table has no AUTO_INCREMENT): its count is 1.
  const hits = Number(result.insertId ?? 0n) || 1;
  // Now and then, the windows that ended long ago go (any process may do it; deleting twice is harmless).
  if (Math.random() < 0.01) {
    await db
      .deleteFrom("public_rate_limits")
      .where("window_start", "<", window - 1)
      .execute();
  }
  return { allowed: hits <= limit, hits, retryAfter: (window + 1) * RATE_WINDOW_SECONDS - seconds };
}
