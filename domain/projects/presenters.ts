import type { Project, ProjectMember, ProjectRole } from '../../db/entities/Project';

export interface ProjectView {
  id: string;
  name: string;
  description: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ProjectMemberView {
  projectId: string;
  userId: string;
  role: ProjectRole;
  createdAt: string;
  updatedAt: string;
}

export function presentProject(p: Project): ProjectView {
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

export function presentMember(m: ProjectMember): ProjectMemberView {
  return {
    projectId: m.project.id,
    userId: m.user.id,
    role: m.role,
    createdAt: m.createdAt.toISOString(),
    updatedAt: m.updatedAt.toISOString(),
  };
}
