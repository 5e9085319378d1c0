import { z } from "zod";

// Every setting the web server and the worker read, parsed once at start-up.
// Defaults make a fresh checkout run locally; production must set the secrets.

const EnvSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    APP_URL: z.url().default("http://localhost:3000"),
    DATABASE_URL: z
      .string()
      .regex(/^mysql:\/\//, "must be a mysql:// URL")
      .default("mysql://root@127.0.0.1:3306/timber"),
    JOBS_DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL")
      .default("postgres://postgres@127.0.0.1:5432/timber_jobs"),
    SESSION_SECRET: z
      .string()
      .min(32, "must be at least 32 characters")
      .default("dev-only-session-secret-change-me-0123456789"),
    SESSION_TTL_SECONDS: z.coerce
      .number()
      .int()
      .min(60)
      .default(12 * 60 * 60),
    STORAGE_DIR: z.string().default("./storage"),
    // Files on an S3-compatible bucket instead of STORAGE_DIR (docs/decisions/025-operations.md).
    STORAGE_S3_BUCKET: z.string().optional(),
    // Only for S3-compatible servers (MinIO, Ceph, ...); AWS needs none.
    STORAGE_S3_ENDPOINT: z.url().optional(),
    STORAGE_S3_REGION: z.string().default("us-east-1"),
    // Without them the AWS SDK's usual chain (environment, instance role) supplies credentials.
    STORAGE_S3_ACCESS_KEY_ID: z.string().optional(),
    STORAGE_S3_SECRET_ACCESS_KEY: z.string().optional(),
    // bucket in the path (http://host/bucket/key) rather than the host name: most S3-compatible servers.
    STORAGE_S3_FORCE_PATH_STYLE: z.stringbool().default(false),
    // Keys are stored under this prefix (e.g. "timber/"), so one bucket can serve several installs.
    STORAGE_S3_PREFIX: z
      .string()
      .regex(/^([a-z0-9][a-z0-9/_.-]*\/)?$/i, "must be empty or end with /")
      .default(""),
    // Export downloads answer with a redirect to a short-lived signed bucket URL instead of being
    // streamed through the web process (the bucket must be reachable from the browsers).
    STORAGE_S3_SIGNED_DOWNLOADS: z.stringbool().default(false),
    ABLY_API_KEY: z
      .string()
      .regex(/^[^:]+\.[^:]+:.+$/, "must look like appId.keyId:secret")
      .optional(),
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL")
      .optional(),
    MAIL_FROM: z.string().default("Timber <no-reply@localhost>"),
    STRIPE_SECRET_KEY: z.string().startsWith("sk_").optional(),
    STRIPE_WEBHOOK_SECRET: z.string().startsWith("whsec_").optional(),
    MAP_TILE_URL: z.string().default("https://tile.openstreetmap.org/{z}/{x}/{y}.png"),
    MAP_TILE_ATTRIBUTION: z.string().default("© OpenStreetMap contributors"),
    CHROMIUM_PATH: z.string().default("/usr/bin/chromium"),
    WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(2),
    // Rows whose job has not finished after this many seconds are enqueued again by the sweep.
    JOB_STALE_AFTER_SECONDS: z.coerce.number().int().min(10).default(300),
    // Which proxies may tell the client's address and protocol (X-Forwarded-*): Express's
    // `trust proxy` (false, true, a hop count, or addresses/subnets). Off: the socket's peer counts.
    TRUST_PROXY: z.string().default("false"),
    // Requests a minute one client address may make to the public token pages, their JSON and
    // images together (docs/decisions/013-public-links.md); counted across every web process.
    PUBLIC_RATE_LIMIT: z.coerce.number().int().min(1).default(300),
    LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
    // One JSON line per request and per job on stdout ("off" for none).
    REQUEST_LOG: z.enum(["json", "off"]).default("json"),
    // /metrics (Prometheus) answers only with `Authorization: Bearer <METRICS_TOKEN>`; unset: 404.
    METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
    // How long a stopping process (SIGTERM) waits for requests and jobs in flight.
    SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(25),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === "production" && env.SESSION_SECRET.startsWith("dev-only")) {
      ctx.addIssue({ code: "custom", path: ["SESSION_SECRET"], message: "must be set in production" });
    }
    if (!!env.STORAGE_S3_ACCESS_KEY_ID !== !!env.STORAGE_S3_SECRET_ACCESS_KEY) {
      ctx.addIssue({
        code: "custom",
        path: ["STORAGE_S3_SECRET_ACCESS_KEY"],
        message: "STORAGE_S3_ACCESS_KEY_ID and STORAGE_S3_SECRET_ACCESS_KEY go together",
      });
    }
  });

export type Env = z.infer<typeof EnvSchema>;

export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const result = EnvSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment configuration:\n${lines.join("\n")}`);
  }
  return result.data;
}

let cached: Env | undefined;
export function env(): Env {
  cached ??= parseEnv();
  return cached;
}

/** Forget the parsed settings (tests that change process.env). */
export function resetEnv() {
  cached = undefined;
}

/** The only settings the browser may see. */
export function publicEnv() {
  const e = env();
  return {
    REALTIME: e.ABLY_API_KEY ? ("ably" as const) : ("sse" as const),
    // "none": no tile server (offline installs, tests); the map draws its markers alone.
    MAP_TILE_URL: e.MAP_TILE_URL === "none" ? "" : e.MAP_TILE_URL,
    MAP_TILE_ATTRIBUTION: e.MAP_TILE_ATTRIBUTION,
  };
}
export type PublicEnv = ReturnType<typeof publicEnv>;
