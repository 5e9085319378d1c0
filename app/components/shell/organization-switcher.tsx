import { useTranslation } from "react-i18next";

/**
 * Shown only to members of several organisations. With JavaScript it makes the spec's
 * PATCH /api/web_app/users/switch_organization/{id} and reloads /; without, the same route
 * takes the form POST and redirects to /.
 */
export function OrganizationSwitcher({
  current,
  organizations,
}: {
  current: { id: number; name: string };
  organizations: { id: number; name: string }[];
}) {
  const { t } = useTranslation("shell");
  if (organizations.length < 2)
    return (
      <span className="org-name" data-testid="org-name">
        {current.name}
      </span>
    );

  async function switchWithFetch(event: React.FormEvent<HTMLFormElement>, id: number) {
    event.preventDefault();
    const response = await fetch(`/api/web_app/users/switch_organization/${id}`, { method: "PATCH" });
    if (response.ok) window.location.assign("/");
    else window.location.reload();
  }

  return (
    <details className="dropdown org-switcher" data-testid="org-switcher">
      <summary className="btn btn-ghost">
        <span className="org-name" data-testid="org-name">
          {current.name}
        </span>
        <span className="sr-only">{t("header.switchOrganization")}</span>
      </summary>
      <ul className="dropdown-menu" role="menu">
        {organizations.map((o) => (
          <li key={o.id}>
            <form
              method="post"
              action={`/api/web_app/users/switch_organization/${o.id}`}
              onSubmit={(e) => switchWithFetch(e, o.id)}
            >
              <button type="submit" className="dropdown-item" disabled={o.id === current.id} role="menuitem">
                {o.name}
              </button>
            </form>
          </li>
        ))}
      </ul>
    </details>
  );
}
