import pg from "pg";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { enqueuePhotoJob } from "../../jobs/enqueue";
import { inspectPhoto, PhotoRejectedError, storeOriginalPhoto } from "~/models/measurement-photo.server";
import { fileStorage } from "~/services/file-storage.server";
import { addJob } from "~/services/jobs.server";
import { db } from "~/utils/db.server";
import { layoutStack, renderStackJpeg } from "#db/seed/stack-photo";
import { createMeasurement, createOrganization, createStorage, createUser, webCookie } from "#tests/factories";
import { databases } from "#tests/helpers/db";
import { api } from "#tests/helpers/http";
import { expectOutsiderGets404 } from "#tests/helpers/tenancy";
import { waitFor } from "#tests/helpers/wait";

async function measurementWithPhoto() {
  const org = await createOrganization();
  const user = await createUser(org.id, { role: "viewer" });
  const storage = await createStorage(org.id);
  const m = await createMeasurement(org.id, storage.id);
  const stack = layoutStack(7, { width: 1200, height: 900 });
  await storeOriginalPhoto(db(), fileStorage(), { organizationId: org.id, measurementId: m.id, data: await renderStackJpeg(stack, 7), fileName: "stack.jpg" });
  return { org, user, measurementId: m.id };
}

const photoRow = (id: number) =>
  db().selectFrom("measurements").select(["photo_status", "photo_thumbnail_key", "photo_popup_key", "photo_optimized_key", "photo_width", "photo_height"]).where("id", "=", id).executeTakeFirstOrThrow();

describe("photo renditions", () => {
  it("the worker process makes optimized, popup and thumbnail renditions and records them", async () => {
    const { user, measurementId } = await measurementWithPhoto();
    expect((await photoRow(measurementId)).photo_status).toBe(0);
    await enqueuePhotoJob(measurementId, addJob);
    const row = await waitFor(async () => {
      const r = await photoRow(measurementId);
      return r.photo_status === 1 ? r : null;
    }, { what: "the photo job" });
    expect(row).toMatchObject({ photo_width: 1200, photo_height: 900 });
    const thumb = await sharp(await fileStorage().get(row.photo_thumbnail_key!)).metadata();
    expect([thumb.format, thumb.width, thumb.height]).toEqual(["jpeg", 160, 160]);
    const popup = await sharp(await fileStorage().get(row.photo_popup_key!)).metadata();
    expect([popup.width, popup.height]).toEqual([1200, 900]); // never enlarged
    // Served to the organisation's members.
    const cookie = await webCookie(user.id);
    const res = await fetch(`${process.env.APP_URL}/files/measurements/${measurementId}/thumbnail`, { headers: { Cookie: cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/jpeg");
    expect(Buffer.from(await res.arrayBuffer()).equals(await fileStorage().get(row.photo_thumbnail_key!))).toBe(true);
  });

  it("enqueuing the same photo twice keeps one job (keyed by the row)", async () => {
    const { measurementId } = await measurementWithPhoto();
    // Scheduled an hour ahead so the running worker cannot take them while we count.
    const later = new Date(Date.now() + 3600_000);
    const key = `process_photo:${measurementId}`;
    await addJob("process_photo", { measurementId }, { jobKey: key, runAt: later });
    await addJob("process_photo", { measurementId }, { jobKey: key, runAt: later });
    await enqueuePhotoJob(measurementId, (name, payload, spec) => addJob(name, payload, { ...spec, runAt: later }));
    const client = new pg.Client({ connectionString: databases().jobsUrl });
    await client.connect();
    try {
      const { rows } = await client.query(`SELECT j.key, j.payload FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
         WHERE t.identifier = 'process_photo' AND j.payload->>'measurementId' = $1`, [String(measurementId)]);
      expect(rows).toEqual([{ key, payload: { measurementId } }]);
    } finally {
      await client.end();
    }
    // Enqueued again for now, the same job runs.
    await enqueuePhotoJob(measurementId, addJob);
    await waitFor(async () => (await photoRow(measurementId)).photo_status === 1, { what: "the photo job" });
  });

  it("the sweep re-enqueues a photo left pending after its job was lost", async () => {
    const { measurementId } = await measurementWithPhoto();
    // No job was ever enqueued; pretend it was long ago.
    await db().updateTable("measurements").set({ photo_enqueued_at: new Date(Date.now() - 3600_000) }).where("id", "=", measurementId).execute();
    await addJob("sweep_pending", {}, { jobKey: "sweep_pending:test" });
    await waitFor(async () => (await photoRow(measurementId)).photo_status === 1, { what: "the sweep and the photo job" });
    const row = await db().selectFrom("measurements").select("photo_attempts").where("id", "=", measurementId).executeTakeFirstOrThrow();
    expect(row.photo_attempts).toBe(1);
  });

  it("refuses what is not an image, and decompression bombs", async () => {
    await expect(inspectPhoto(Buffer.from("not an image at all"))).rejects.toMatchObject({ reason: "not_an_image" });
    // 12 000 x 12 000 pixels of one colour: a tiny PNG that would decode to 576 MB.
    const bomb = await sharp({ create: { width: 12000, height: 12000, channels: 3, background: "#fff" } }).png({ compressionLevel: 9 }).toBuffer();
    expect(bomb.byteLength).toBeLessThan(2_000_000);
    const error = await inspectPhoto(bomb).catch((e) => e);
    expect(error).toBeInstanceOf(PhotoRejectedError);
    expect(["too_many_pixels", "not_an_image"]).toContain(error.reason);
  });

  it("a photo of another organisation answers 404", async () => {
    const { measurementId } = await measurementWithPhoto();
    await enqueuePhotoJob(measurementId, addJob);
    await waitFor(async () => (await photoRow(measurementId)).photo_status === 1, { what: "the photo job" });
    await expectOutsiderGets404(({ token }) => api(`/files/measurements/${measurementId}/thumbnail`, { token }));
  });
});
