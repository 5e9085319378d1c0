// The web process's request pipeline (bundled to build/web-server.js, used by server.js).
export { createSecureRequestHandler } from "./remix-handler";
export { answerUnreadableForms } from "./form-data-errors";
export { trustProxySetting, validIp } from "./client-ip";
export { BODY_LIMIT_BYTES, UPLOAD_LIMIT_BYTES } from "./body-limit";
export { env } from "~/utils/env.server";
export { observeRequests, logLine } from "./observability";
export { setDraining } from "~/services/health.server";
