import nodemailer, { type Transporter } from "nodemailer";
import { db } from "~/utils/db.server";
import { env } from "~/utils/env.server";

// Every e-mail goes through here. It is always written to the outbox table (what development and
// tests read); with SMTP_URL set it is also delivered, and sent_at records when.
export type Mail = { to: string; subject: string; text: string; html?: string };

let transport: Transporter | undefined;

export async function sendMail(mail: Mail) {
  const result = await db()
    .insertInto("mail_outbox")
    .values({ to_address: mail.to, subject: mail.subject, text_body: mail.text, html_body: mail.html ?? null })
    .executeTakeFirstOrThrow();
  const id = Number(result.insertId);
  const url = env().SMTP_URL;
  if (!url) return { id, delivered: false };
  transport ??= nodemailer.createTransport(url);
  await transport.sendMail({
    from: env().MAIL_FROM,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
  });
  await db().updateTable("mail_outbox").set({ sent_at: new Date() }).where("id", "=", id).execute();
  return { id, delivered: true };
}

export function resetMailer() {
  transport?.close();
  transport = undefined;
}
