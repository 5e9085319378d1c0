import { sql } from "kysely";
import { sumContainerTotals } from "~/domain/container";
import type { DB } from "~/utils/db.server";
import { containerFigures } from "./container.server";
import type { PublicGrant } from "./public-link.server";

// What a shared container or bill of lading shows its recipient (/public_container/{token},
// /public_bill_of_lading/{token} and their JSON reads GET /containers/container/public/{token},
// GET /containers/bill_of_ladings/public/{token}), read through the grant (its organisation, its
// id) and nothing else: a container's token grants that container and its live measurements; a
// bill's token grants the bill, its containers and their measurements. The figures are the
// stored JAS ones (app/domain/container.ts computes each log's scaling diameter and volume and the
// measurement's sums), added up as the private screens add them (containerFigures), so the page
// and the screen show the same numbers. No ids but the measurements' own (the page names them and
// serves their thumbnails through the token); no people, devices, comments or custom fields; of
// the organisation only its name (docs/decisions/013-public-links.md, 022-containers.md).

type Grant = Pick<PublicGrant, "organizationId" | "recordId" | "organizationName" | "timeZone">;

export interface PublicContainerMeasurement {
  id: number;
  shown_name: string;
  taken_at: Date;
  logs_count: number;
  log_length: number | null;
  volume: number;
  locked: boolean;
  photo_thumbnail: string | null;
  /** SHA-256 of the original photo taken at upload (decision 024), when recorded. */
  photo_sha256: string | null;
}

export interface PublicTallyRow {
  jas_diameter: number;
  length: number;
  log_count: number;
  volume: number;
}

export interface PublicContainer {
  name: string;
  seal_number: string | null;
  weight: string | null;
  width: string | null;
  height: string | null;
  tare_weight: number | null;
  net_weight: number | null;
  measurement_count: number;
  log_count: number;
  /** m³, JAS. */
  volume: number;
  measurements: PublicContainerMeasurement[];
}

export interface PublicContainerView {
  container: PublicContainer;
  bill_of_lading: { name: string } | null;
  tally: PublicTallyRow[];
  organization: { name: string };
  time_zone: string;
}

export interface PublicBillOfLadingView {
  bill_of_lading: {
    name: string;
    container_count: number;
    measurement_count: number;
    log_count: number;
    /** m³, JAS. */
    volume: number;
  };
  containers: PublicContainer[];
  tally: PublicTallyRow[];
  organization: { name: string };
  time_zone: string;
}

type ContainerRow = {
  id: number;
  name: string;
  seal_number: string | null;
  weight: string | null;
  width: string | null;
  height: string | null;
  tare_weight: number | null;
  net_weight: number | null;
};

const containerColumns = [
  "id",
  "name",
  "seal_number",
  "weight",
  "width",
  "height",
  "tare_weight",
  "net_weight",
  "bill_of_lading_id",
] as const;

/** The live measurements of these containers, newest first, by container id. */
async function measurementsOf(db: DB, organizationId: number, containerIds: number[], thumbnailBase: string) {
  const out = new Map<number, PublicContainerMeasurement[]>();
  if (!containerIds.length) return out;
  const rows = await db
    .selectFrom("container_measurements")
    .select([
      "id",
      "container_id",
      "taken_at",
      "logs_count",
      "log_length",
      "volume",
      "locked_at",
      "photo_thumbnail_key",
      "photo_sha256",
    ])
    .where("organization_id", "=", organizationId)
    .where("container_id", "in", containerIds)
    .where("deleted_at", "is", null)
    .orderBy("taken_at", "desc")
    .orderBy("id", "desc")
    .execute();
  for (const m of rows) {
    const list = out.get(m.container_id!) ?? [];
    list.push({
      id: m.id,
      shown_name: `#${m.id}`,
      taken_at: m.taken_at,
      logs_count: m.logs_count,
      log_length: m.log_length,
      volume: m.volume,
      locked: m.locked_at !== null,
      photo_thumbnail: m.photo_thumbnail_key ? `${thumbnailBase}/${m.id}` : null,
      photo_sha256: m.photo_sha256,
    });
    out.set(m.container_id!, list);
  }
  return out;
}

/**
 * The JAS tally of the kept logs of these containers' live measurements: logs by length and JAS
 * scaling diameter with their count and the sum of their stored per-log volumes (as
 * app/domain/container.ts jasTally groups them, done in the database so a 200-container bill is
 * not read log by log).
 */
async function tallyOf(db: DB, organizationId: number, containerIds: number[]): Promise<PublicTallyRow[]> {
  if (!containerIds.length) return [];
  const rows = await db
    .selectFrom("container_measurement_logs as l")
    .innerJoin("container_measurements as m", "m.id", "l.container_measurement_id")
    .select((eb) => [
      "m.log_length",
      "l.jas_d",
      eb.fn.countAll<number>().as("n"),
      sql<number>`SUM(${sql.ref("l.v")})`.as("v"),
    ])
    .where("m.organization_id", "=", organizationId)
    .where("l.organization_id", "=", organizationId)
    .where("m.container_id", "in", containerIds)
    .where("m.deleted_at", "is", null)
    .where("l.is_deleted", "=", false)
    .groupBy(["m.log_length", "l.jas_d"])
    .orderBy("m.log_length")
    .orderBy("l.jas_d")
    .execute();
  return rows.map((r) => ({
    jas_diameter: Number(r.jas_d),
    length: Number(r.log_length ?? 0),
    log_count: Number(r.n),
    volume: Number(r.v ?? 0),
  }));
}

async function publicContainers(
  db: DB,
  organizationId: number,
  rows: ContainerRow[],
  thumbnailBase: string,
): Promise<PublicContainer[]> {
  const ids = rows.map((r) => r.id);
  const [figures, measurements] = await Promise.all([
    containerFigures(db, { organizationId }, ids),
    measurementsOf(db, organizationId, ids, thumbnailBase),
  ]);
  return rows.map((c) => {
    const f = figures.get(c.id);
    return {
      name: c.name,
      seal_number: c.seal_number,
      weight: c.weight,
      width: c.width,
      height: c.height,
      tare_weight: c.tare_weight,
      net_weight: c.net_weight,
      measurement_count: f?.measurement_count ?? 0,
      log_count: f?.log_count ?? 0,
      volume: f?.volume ?? 0,
      measurements: measurements.get(c.id) ?? [],
    };
  });
}

/** The shared container; undefined when it is gone. */
export async function readPublicContainer(
  db: DB,
  grant: Grant,
  token: string,
): Promise<PublicContainerView | undefined> {
  const row = await db
    .selectFrom("containers")
    .select(containerColumns)
    .where("id", "=", grant.recordId)
    .where("organization_id", "=", grant.organizationId)
    .executeTakeFirst();
  if (!row) return undefined;
  const bill = row.bill_of_lading_id
    ? await db
        .selectFrom("bill_of_ladings")
        .select("name")
        .where("id", "=", row.bill_of_lading_id)
        .where("organization_id", "=", grant.organizationId)
        .executeTakeFirst()
    : undefined;
  const [container] = await publicContainers(db, grant.organizationId, [row], `/public_container/${token}/thumbnails`);
  return {
    container: container!,
    bill_of_lading: bill ? { name: bill.name } : null,
    tally: await tallyOf(db, grant.organizationId, [row.id]),
    organization: { name: grant.organizationName },
    time_zone: grant.timeZone,
  };
}

/** The shared bill of lading with its containers (by name) and their measurements; undefined when it is gone. */
export async function readPublicBillOfLading(
  db: DB,
  grant: Grant,
  token: string,
): Promise<PublicBillOfLadingView | undefined> {
  const bill = await db
    .selectFrom("bill_of_ladings")
    .select(["id", "name"])
    .where("id", "=", grant.recordId)
    .where("organization_id", "=", grant.organizationId)
    .executeTakeFirst();
  if (!bill) return undefined;
  const rows = await db
    .selectFrom("containers")
    .select(containerColumns)
    .where("organization_id", "=", grant.organizationId)
    .where("bill_of_lading_id", "=", bill.id)
    .orderBy("name")
    .orderBy("id")
    .execute();
  const containers = await publicContainers(
    db,
    grant.organizationId,
    rows,
    `/public_bill_of_lading/${token}/thumbnails`,
  );
  // The bill's totals: the sum of its containers' (app/domain/container.ts), as the bill's row on the screen.
  const totals = sumContainerTotals(
    containers.map((c, i) => ({
      containerId: i,
      measurementCount: c.measurement_count,
      logCount: c.log_count,
      volumeM3: c.volume,
    })),
  );
  return {
    bill_of_lading: {
      name: bill.name,
      container_count: containers.length,
      measurement_count: containers.reduce((s, c) => s + c.measurement_count, 0),
      log_count: totals.logCount,
      volume: totals.volumeM3,
    },
    containers,
    tally: await tallyOf(
      db,
      grant.organizationId,
      rows.map((r) => r.id),
    ),
    organization: { name: grant.organizationName },
    time_zone: grant.timeZone,
  };
}

/**
 * The thumbnail key of a live measurement the grant covers (the shared container's, or one in a
 * container of the shared bill), or undefined.
 */
export async function publicContainerThumbnailKey(
  db: DB,
  grant: Pick<PublicGrant, "organizationId" | "recordId" | "kind">,
  measurementId: number,
) {
  let q = db
    .selectFrom("container_measurements as m")
    .innerJoin("containers as c", "c.id", "m.container_id")
    .select("m.photo_thumbnail_key")
    .where("m.id", "=", measurementId)
    .where("m.organization_id", "=", grant.organizationId)
    .where("c.organization_id", "=", grant.organizationId)
    .where("m.deleted_at", "is", null);
  if (grant.kind === "container") q = q.where("c.id", "=", grant.recordId);
  else if (grant.kind === "bill_of_lading") q = q.where("c.bill_of_lading_id", "=", grant.recordId);
  else return undefined;
  const row = await q.executeTakeFirst();
  return row?.photo_thumbnail_key ?? undefined;
}
