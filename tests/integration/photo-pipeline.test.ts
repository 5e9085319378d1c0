import pg from "pg";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { layoutStack, renderStackJpeg } from "#db/seed/stack-photo";
import {
  apiToken,
  createLumberMeasurement,
  createMeasurement,
  createOrganization,
  createStorage,
  createUser,
  webCookie,
} from "#tests/factories";
import { databases } from "#tests/helpers/db";
import { api, baseUrl } from "#tests/helpers/http";
import { expectOutsiderGets404 } from "#tests/helpers/tenancy";
import { waitFor } from "#tests/helpers/wait";
import { fileStorage } from "~/services/file-storage.server";
import { addJob, enqueuePhotoJob } from "~/services/jobs.server";
import { inspectPhoto, PhotoRejectedError, storeOriginalPhoto } from "~/services/photos.server";
import { db } from "~/utils/db.server";

async function measurementWithPhoto() {
  const org = await createOrganization();
  const user = await createUser(org.id, { role: "viewer" });
  const storage = await createStorage(org.id);
  const m = await createMeasurement(org.id, storage.id);
  const stack = layoutStack(7, { width: 1200, height: 900 });
  await storeOriginalPhoto(db(), fileStorage(), "timber", {
    organizationId: org.id,
    measurementId: m.id,
    data: await renderStackJpeg(stack, 7),
    fileName: "stack.jpg",
  });
  return { org, user, measurementId: m.id };
}

const photoRow = (id: number) =>
  db()
    .selectFrom("measurements")
    .select([
      "photo_status",
      "photo_thumbnail_key",
      "photo_popup_key",
      "photo_optimized_key",
      "photo_width",
      "photo_height",
    ])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();

describe("photo renditions", () => {
  it("the worker process makes optimized, popup and thumbnail renditions and records them", async () => {
    const { user, measurementId } = await measurementWithPhoto();
    expect((await photoRow(measurementId)).photo_status).toBe(0);
    await enqueuePhotoJob(measurementId, addJob);
    const row = await waitFor(
      async () => {
        const r = await photoRow(measurementId);
        return r.photo_status === 1 ? r : null;
      },
      { what: "the photo job" },
    );
    expect(row).toMatchObject({ photo_width: 1200, photo_height: 900 });
    const thumb = await sharp(await fileStorage().get(row.photo_thumbnail_key!)).metadata();
    expect([thumb.format, thumb.width, thumb.height]).toEqual(["jpeg", 160, 160]);
    const popup = await sharp(await fileStorage().get(row.photo_popup_key!)).metadata();
    expect([popup.width, popup.height]).toEqual([1200, 900]); // never enlarged
    // Served to the organisation's members.
    const cookie = await webCookie(user.id);
    const res = await fetch(`${process.env.APP_URL}/files/measurements/${measurementId}/thumbnail`, {
      headers: { Cookie: cookie },
    });
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
      const { rows } = await client.query(
        `SELECT j.key, j.payload FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
         WHERE t.identifier = 'process_photo' AND j.payload->>'measurementId' = $1`,
        [String(measurementId)],
      );
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
    await db()
      .updateTable("measurements")
      .set({ photo_enqueued_at: new Date(Date.now() - 3600_000) })
      .where("id", "=", measurementId)
      .execute();
    await addJob("sweep_pending", {}, { jobKey: "sweep_pending:test" });
    await waitFor(async () => (await photoRow(measurementId)).photo_status === 1, {
      what: "the sweep and the photo job",
    });
    const row = await db()
      .selectFrom("measurements")
      .select("photo_attempts")
      .where("id", "=", measurementId)
      .executeTakeFirstOrThrow();
    expect(row.photo_attempts).toBe(1);
  });

  it("refuses what is not an image, and decompression bombs", async () => {
    await expect(inspectPhoto(Buffer.from("not an image at all"))).rejects.toMatchObject({ reason: "not_an_image" });
    // 12 000 x 12 000 pixels of one colour: a tiny PNG that would decode to 576 MB.
    const bomb = await sharp({ create: { width: 12000, height: 12000, channels: 3, background: "#fff" } })
      .png({ compressionLevel: 9 })
      .toBuffer();
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

describe("photos of every measurement kind", () => {
  const lumberRow = (id: number) =>
    db()
      .selectFrom("lumber_measurements")
      .select(["photo_status", "photo_attempts", "photo_thumbnail_key", "photo_optimized_key", "photo_popup_key"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();

  it("a lumber photo gets the timber renditions, served to the organisation's members only", async () => {
    const org = await createOrganization();
    const user = await createUser(org.id, { role: "viewer" });
    const storage = await createStorage(org.id);
    const m = await createLumberMeasurement(org.id, storage.id);
    expect((await lumberRow(m.id)).photo_status).toBe(0);
    await enqueuePhotoJob(m.id, addJob, "lumber");
    const row = await waitFor(
      async () => {
        const r = await lumberRow(m.id);
        return r.photo_status === 1 ? r : null;
      },
      { what: "the lumber photo job" },
    );
    expect(row.photo_thumbnail_key).toBe(`organizations/${org.id}/lumber_measurements/${m.id}/thumbnail.jpg`);
    const thumb = await sharp(await fileStorage().get(row.photo_thumbnail_key!)).metadata();
    expect([thumb.format, thumb.width, thumb.height]).toEqual(["jpeg", 160, 160]);
    const popup = await sharp(await fileStorage().get(row.photo_popup_key!)).metadata();
    expect([popup.width, popup.height]).toEqual([m.photo.width, m.photo.height]); // never enlarged

    const token = await apiToken(user.id);
    for (const variant of ["original", "optimized", "popup", "thumbnail"]) {
      const res = await fetch(`${baseUrl()}/files/lumber_measurements/${m.id}/${variant}`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect([res.status, res.headers.get("content-type")], variant).toEqual([200, "image/jpeg"]);
      await res.arrayBuffer();
    }
    expect((await api(`/files/lumber_measurements/${m.id}/nonsense`, { token })).status).toBe(404);
    expect((await api(`/files/no_such_kind/${m.id}/thumbnail`, { token })).status).toBe(404);
    await expectOutsiderGets404(({ token: other }) =>
      api(`/files/lumber_measurements/${m.id}/thumbnail`, { token: other }),
    );
    // The API and the detail screen use them.
    const res = await api(`/api/web_app/lumber_measurements/${m.id}`, { token });
    expect(res.data.data).toMatchObject({
      photo: `/files/lumber_measurements/${m.id}/photo`,
      photo_thumbnail: `/files/lumber_measurements/${m.id}/thumbnail`,
      photo_optimized: `/files/lumber_measurements/${m.id}/optimized`,
      photo_status: 1,
    });
    const page = await api(`/measurements/lumber/${m.id}`, { cookie: await webCookie(user.id) });
    expect(page.data).toContain(`src="/files/lumber_measurements/${m.id}/optimized"`);
  });

  it("the sweep re-enqueues a lumber photo left pending, like a timber one", async () => {
    const org = await createOrganization();
    const storage = await createStorage(org.id);
    const m = await createLumberMeasurement(org.id, storage.id);
    await db()
      .updateTable("lumber_measurements")
      .set({ photo_enqueued_at: new Date(Date.now() - 3600_000) })
      .where("id", "=", m.id)
      .execute();
    await addJob("sweep_pending", {}, { jobKey: "sweep_pending:lumber-test" });
    await waitFor(async () => (await lumberRow(m.id)).photo_status === 1, { what: "the sweep and the photo job" });
    expect((await lumberRow(m.id)).photo_attempts).toBe(1);
  });
});
