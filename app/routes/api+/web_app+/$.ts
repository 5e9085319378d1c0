import { json } from "@remix-run/node";
import { requireApiUser } from "~/utils/auth.server";

// Unknown API paths answer JSON, never an HTML page. Authentication comes first, so an
// unauthenticated client learns nothing about which paths exist.
async function notFound({ request }: { request: Request }) {
  await requireApiUser(request);
  return json({ error: "not_found" }, { status: 404 });
}

export const loader = notFound;
export const action = notFound;
