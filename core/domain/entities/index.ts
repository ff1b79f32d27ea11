/** The core's entity list, handed to the ORM together with the plugins' own entities. */
import { ApiToken } from './api-token.ts';
import { AuditEntry } from './audit-entry.ts';
import { LoadConfigEntity } from './load-config.ts';
import { Machine } from './machine.ts';
import { MemberInvitation } from './member-invitation.ts';
import { Membership } from './membership.ts';
import { RolePermissionOverride } from './role-permission-override.ts';
import { Schedule } from './schedule.ts';
import { Task } from './task.ts';
import { TaskAssignment } from './task-assignment.ts';
import { TestDefinition } from './test-definition.ts';
import { UserProfile } from './user-profile.ts';
import { Workspace } from './workspace.ts';

export const coreEntities = [
  Workspace,
  UserProfile,
  Membership,
  MemberInvitation,
  Machine,
  TestDefinition,
  ApiToken,
  RolePermissionOverride,
  AuditEntry,
  LoadConfigEntity,
  Task,
  TaskAssignment,
  Schedule,
];
