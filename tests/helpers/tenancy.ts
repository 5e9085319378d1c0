import { expect } from "vitest";
import { apiToken, createOrganization, createUser, webCookie } from "#tests/factories";
import { snapshotTables } from "./db";

/**
 * The tenancy check every API route gets: a user of another organisation (admin there, so
 * roles are no excuse) asks for another organisation's record and gets 404, and no table changes.
 */
export async function expectOutsiderGets404(
  call: (outsider: { token: string; cookie: string; userId: number }) => Promise<{ status: number; data: unknown }>,
) {
  const org = await createOrganization({ name: "Outsider Org" });
  const user = await createUser(org.id, { role: "admin" });
  const token = await apiToken(user.id);
  // A screen session too, made before the snapshot, for checks of screens.
  const cookie = await webCookie(user.id);
  const before = await snapshotTables();
  const response = await call({ token, cookie, userId: user.id });
  expect(response.status, JSON.stringify(response.data)).toBe(404);
  expect(await snapshotTables()).toEqual(before);
}
