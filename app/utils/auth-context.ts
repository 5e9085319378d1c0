import type { Organization, Role, User } from "#db/schema";

/**
 * Who is asking, in which organisation, with what rights. Every model function takes it first.
 * It lives alone (type imports only) so models can name it without importing the guards, which
 * import models.
 */
export interface AuthContext {
  userId: number;
  organizationId: number;
  roles: Role[];
  features: string[];
  isAdmin: boolean;
  user: User;
  organization: Organization;
  organizations: { id: number; name: string }[];
}
