import { SMTPServer } from "smtp-server";
import { afterEach, describe, expect, it } from "vitest";
import { resetMailer, sendMail } from "~/services/mailer.server";
import { db } from "~/utils/db.server";
import { resetEnv } from "~/utils/env.server";

describe("mailer", () => {
  afterEach(() => {
    delete process.env.SMTP_URL;
    resetEnv();
    resetMailer();
  });

  it("without SMTP_URL keeps the mail in the outbox, undelivered", async () => {
    const result = await sendMail({
      to: "forester@example.test",
      subject: "Verify your e-mail",
      text: "Open the link",
    });
    expect(result.delivered).toBe(false);
    const row = await db().selectFrom("mail_outbox").selectAll().where("id", "=", result.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      to_address: "forester@example.test",
      subject: "Verify your e-mail",
      text_body: "Open the link",
      sent_at: null,
    });
  });

  it("with SMTP_URL delivers over SMTP and records when", async () => {
    const received: { from: string; to: string[]; data: string }[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      onData(stream, session, callback) {
        let data = "";
        stream.on("data", (c) => (data += c));
        stream.on("end", () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((r) => r.address),
            data,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.server.address() as { port: number };
    try {
      process.env.SMTP_URL = `smtp://127.0.0.1:${port}`;
      resetEnv();
      const result = await sendMail({ to: "clerk@example.test", subject: "Invitation", text: "Join the yard" });
      expect(result.delivered).toBe(true);
      expect(received).toHaveLength(1);
      expect(received[0].to).toEqual(["clerk@example.test"]);
      expect(received[0].data).toContain("Subject: Invitation");
      expect(received[0].data).toContain("Join the yard");
      const row = await db()
        .selectFrom("mail_outbox")
        .select("sent_at")
        .where("id", "=", result.id)
        .executeTakeFirstOrThrow();
      expect(row.sent_at).toBeInstanceOf(Date);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
