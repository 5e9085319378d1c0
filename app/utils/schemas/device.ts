import { z } from "zod";

export const DevicePairingSchema = z.object({
  activation_code: z.string().trim().min(4).max(16),
  hw_id: z.string().trim().min(1).max(255),
  name: z.string().trim().min(1).max(255),
});
