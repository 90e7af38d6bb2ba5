import type { FastifyRequest } from 'fastify';
import { notFound } from '../errors.js';
import type { AuthContext } from './auth-context.js';

export type StaffLevel = 'moderator' | 'admin';

const RANK: Record<StaffLevel, number> = { moderator: 1, admin: 2 };

/** Whether a person's staff role reaches a level (`admin` includes everything a moderator may do). */
export function hasStaffLevel(role: StaffLevel | null | undefined, needed: StaffLevel): boolean {
  return role != null && RANK[role] >= RANK[needed];
}

/**
 * The caller of a staff route, when their role reaches the route's level. Anyone else — a guest,
 * a bad token, a normal user, a moderator on an admin route — gets the same 404 as a route that
 * does not exist, so the console's existence is not revealed.
 */
export function requireStaff(auth: AuthContext | null, needed: StaffLevel): AuthContext {
  if (!auth || !hasStaffLevel(auth.user.staffRole, needed)) throw notFound();
  return auth;
}

/** The staff level a route's declaration asks for, if any. */
export function staffLevelOf(request: FastifyRequest): StaffLevel | undefined {
  return request.routeOptions.config.declaration?.staff;
}
