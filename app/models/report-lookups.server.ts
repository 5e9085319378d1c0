import type { DB } from "~/utils/db.server";

/** A report's organisations as the report shows them: the other side's name, the owner's currency. */
export async function organizationNameAndCurrency(db: DB, organizationId: number) {
  return db
    .selectFrom("organizations")
    .select(["name", "currency"])
    .where("id", "=", organizationId)
    .executeTakeFirst();
}

export interface ReportParty {
  name: string;
  address: string | null;
  vat_code: string | null;
  registration_code: string | null;
  currency: string;
}

/**
 * The invoice's and the delivery sheet's parties: the seller (the report's organisation, whose
 * currency the report's prices are in) and the buyer (the recipient organisation, if any).
 */
export async function reportParties(
  db: DB,
  report: { organization_id: number; recipient_organization_id: number | null },
): Promise<{ seller: ReportParty; buyer: ReportParty | null }> {
  const ids = [report.organization_id, report.recipient_organization_id].filter((id): id is number => id !== null);
  const rows = await db
    .selectFrom("organizations")
    .select(["id", "name", "address", "vat_code", "registration_code", "currency"])
    .where("id", "in", ids)
    .execute();
  const party = (id: number | null): ReportParty | null => {
    const r = rows.find((o) => o.id === id);
    return r
      ? {
          name: r.name,
          address: r.address,
          vat_code: r.vat_code,
          registration_code: r.registration_code,
          currency: r.currency,
        }
      : null;
  };
  const seller = party(report.organization_id) ?? {
    name: "",
    address: null,
    vat_code: null,
    registration_code: null,
    currency: "EUR",
  };
  return { seller, buyer: party(report.recipient_organization_id) };
}
