import { expect } from "vitest";
import { apiToken, createOrganization, createUser } from "#tests/factories";
import { snapshotTables } from "./db";

/**
 * The tenancy check every API route gets: a user of another organisation (admin there, so
 * roles are no excuse) asks for another organisation's record and gets 404, and no table changes.
 */
export async function expectOutsiderGets404(call: (outsider: { token: string; userId: number }) => Promise<{ status: number; data: unknown }>) {
  const org = await createOrganization({ name: "Outsider Org" });
  const user = await createUser(org.id, { role: "admin" });
  const token = await apiToken(user.id);
  const before = await snapshotTables();
  const response = await call({ token, userId: user.id });
  expect(response.status, JSON.stringify(response.data)).toBe(404);
  expect(await snapshotTables()).toEqual(before);
}
