import { Form, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { PublicLinkScreen } from "~/utils/public-link-form.server";
import { useFormat } from "~/utils/use-format";
import { CopyLinkButton } from "./copy-link-button";
import type { SerializeFrom } from "@remix-run/node";

type Link = SerializeFrom<PublicLinkScreen>;

/**
 * A record's public link for its owner: the address with a copy button ("Copied" for 2 s) and a
 * way to open it, when it was last opened, and (for those who may share) create, make a new link
 * (the old one stops at once) and stop sharing. Plain forms: the screen's action handles the
 * public-link intents (app/utils/public-link-form.server.ts), with or without JavaScript.
 */
type LinkKind = "measurement" | "storage" | "mixed_stack_report";
const INTRO: Record<LinkKind, string> = {
  measurement: "link.introMeasurement",
  storage: "link.introStorage",
  mixed_stack_report: "mixed-stack:link.intro",
};

export function PublicLinkPanel({ link, kind }: { link: Link; kind: LinkKind }) {
  const { t } = useTranslation("public");
  const format = useFormat();
  const busy = useNavigation().state === "submitting";
  const post = (intent: string, label: string, opts: { confirm?: string; primary?: boolean; testId: string }) => (
    <Form
      method="post"
      className="public-link-form"
      onSubmit={(e) => {
        if (opts.confirm && !window.confirm(opts.confirm)) e.preventDefault();
      }}
    >
      <input type="hidden" name="intent" value={intent} />
      <button
        type="submit"
        className={opts.primary ? "btn btn-primary" : "btn"}
        disabled={busy}
        data-testid={opts.testId}
      >
        {label}
      </button>
    </Form>
  );
  return (
    <div className="public-link-panel" data-testid="public-link-panel">
      <p className="muted">{t(INTRO[kind])}</p>
      {link.vmu && kind === "measurement" ? <p className="muted small">{t("link.vmu")}</p> : null}
      {link.url ? (
        <>
          <div className="public-link-row">
            <input
              readOnly
              value={link.url}
              aria-label={t("link.address")}
              className="link-field"
              data-testid="public-link"
              onFocus={(e) => e.currentTarget.select()}
            />
            <CopyLinkButton url={link.url} label={t("link.copy")} copiedLabel={t("link.copied")} />
            <a className="btn" href={link.url} target="_blank" rel="noopener noreferrer" data-testid="open-public-link">
              {t("link.open")}
            </a>
          </div>
          <p className="muted small" data-testid="last-opened">
            {link.lastOpenedAt
              ? t("link.lastOpened", { when: format.dateTime(link.lastOpenedAt) })
              : t("link.neverOpened")}
          </p>
        </>
      ) : link.shared ? (
        <p className="alert alert-info" data-testid="public-link-hidden">
          {t("link.hidden")}
        </p>
      ) : (
        <p data-testid="public-link-none">{t("link.notShared")}</p>
      )}
      {link.canShare ? (
        <div className="public-link-actions">
          {!link.url
            ? post("public-link-create", t("link.create"), { primary: true, testId: "create-public-link" })
            : null}
          {link.url
            ? post("public-link-rotate", t("link.rotate"), {
                confirm: t("link.rotateConfirm"),
                testId: "rotate-public-link",
              })
            : null}
          {link.shared
            ? post("public-link-stop", t("link.stop"), { confirm: t("link.stopConfirm"), testId: "stop-public-link" })
            : null}
        </div>
      ) : !link.url ? (
        <p className="muted small">{t("link.askToShare")}</p>
      ) : null}
    </div>
  );
}

/** The detail page's public-link button: opens the panel in place (a disclosure, so it works without JavaScript). */
export function PublicLinkDialog({ link, kind }: { link: Link; kind: LinkKind }) {
  const { t } = useTranslation("public");
  return (
    <details className="dropdown public-link-dialog" data-testid="public-link-dialog">
      <summary className="btn" data-testid="open-public-link-dialog">
        {t("link.button")}
      </summary>
      <div className="dropdown-menu public-link-popover" role="dialog" aria-label={t("link.title")}>
        <h2 className="card-title">{t("link.title")}</h2>
        <PublicLinkPanel link={link} kind={kind} />
      </div>
    </details>
  );
}
