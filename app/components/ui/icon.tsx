// A small inline icon set (24x24 strokes), so the shell needs no icon font or extra package.
const PATHS = {
  timber: "M4 17a3 3 0 1 0 6 0a3 3 0 1 0 -6 0M14 17a3 3 0 1 0 6 0a3 3 0 1 0 -6 0M9 9a3 3 0 1 0 6 0a3 3 0 1 0 -6 0",
  container: "M3 7h18v11H3zM7 7v11M11 7v11M15 7v11M19 7v11",
  truck: "M3 6h11v9H3zM14 9h4l3 3v3h-7M7 18a2 2 0 1 0 0.01 0M17 18a2 2 0 1 0 0.01 0",
  lumber: "M3 8h18v3H3zM3 13h18v3H3z",
  cmpc: "M12 3v18M5 8l7-5l7 5M5 16l7 5l7-5",
  exports: "M12 4v11M8 11l4 4l4-4M5 19h14",
  devices: "M8 3h8v18H8zM11 18h2",
  master: "M12 3c4 4 6 8 0 18c-6-10-4-14 0-18z",
  users: "M9 8a3 3 0 1 0 0.01 0M3 20c0-4 3-6 6-6s6 2 6 6M17 11a2.5 2.5 0 1 0 0.01 0M16 14c3 0 5 2 5 5",
  fields: "M4 6h16M4 12h10M4 18h7",
  reports: "M6 3h9l4 4v14H6zM9 12h7M9 16h7M9 8h4",
  inventories: "M4 5h16v4H4zM5 9v10h14V9M10 13h4",
  analysis: "M4 20V10M10 20V4M16 20v-7M22 20H2",
  storages: "M12 3l9 5v11H3V8zM8 19v-6h8v6",
  settings:
    "M12 9a3 3 0 1 0 0.01 0M4 12h2M18 12h2M12 4v2M12 18v2M6.3 6.3l1.4 1.4M16.3 16.3l1.4 1.4M6.3 17.7l1.4-1.4M16.3 7.7l1.4-1.4",
  billing: "M3 6h18v12H3zM3 10h18M7 15h4",
  lock: "M6 11h12v9H6zM8 11V8a4 4 0 0 1 8 0v3",
  logout: "M15 4h4v16h-4M10 8l-4 4l4 4M6 12h10",
  menu: "M4 6h16M4 12h16M4 18h16",
  chevron: "M9 6l6 6l-6 6",
  photo: "M3 6h18v13H3zM8 11a2 2 0 1 0 0.01 0M3 17l6-5l4 4l3-2l5 4",
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name, size = 18, title }: { name: IconName; size?: number; title?: string }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden={title ? undefined : true}
      role={title ? "img" : undefined}
      className="icon"
    >
      {title ? <title>{title}</title> : null}
      <path d={PATHS[name]} />
    </svg>
  );
}
