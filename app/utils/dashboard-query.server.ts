import { fieldErrors } from "~/utils/api.server";
import { pageParam } from "~/utils/schemas/limits";
import { dashboardFilterSchema, filterParamsFromSearch } from "~/utils/schemas/timber";
import { DEFAULT_RANGE, matchingRange, QUICK_RANGES, quickRangeDates } from "~/utils/timber-dates";

/**
 * The query string of a measurement dashboard (timber, lumber): the filter (the last three
 * months on a first load, the spec's default), the values to show back in the filter panel,
 * the filter's errors, the quick range it matches, the expanded storage and its page.
 */
export function readDashboardQuery(url: URL, timeZone: string) {
  const params = new URLSearchParams(url.searchParams);
  if (!params.has("taken_at_start") && !params.has("taken_at_end")) {
    const d = quickRangeDates(DEFAULT_RANGE, timeZone);
    params.set("taken_at_start", d.start);
    params.set("taken_at_end", d.end);
  }
  const raw = filterParamsFromSearch(params);
  const parsed = dashboardFilterSchema(timeZone).safeParse(raw);
  const values: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (k === "custom_fields")
      for (const [ck, cv] of Object.entries(v as Record<string, string>)) values[`custom_fields[${ck}]`] = cv;
    else values[k] = String(v);
  }
  return {
    filter: parsed.success ? parsed.data : {},
    values,
    filterErrors: parsed.success ? {} : fieldErrors(parsed.error),
    range: matchingRange(values.taken_at_start, values.taken_at_end, timeZone),
    ranges: Object.fromEntries(QUICK_RANGES.map((r) => [r, quickRangeDates(r, timeZone)])),
    openId: Number(url.searchParams.get("open")) || null,
    page: pageParam(url.searchParams.get("page")),
  };
}
