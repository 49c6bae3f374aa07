import type { PhoneAgent, PhoneModel, PhoneNumber, PhoneVoice } from '@svc/client';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api';

/** The workspace's phone agents (first 100), for names and pickers. */
export function usePhoneAgents() {
  return useQuery({
    queryKey: ['phone', 'agents'],
    queryFn: () => api<{ agents: PhoneAgent[] }>('/v1/phone/agents?limit=100'),
  });
}

/** The workspace's numbers (first 100). */
export function useNumbers() {
  return useQuery({
    queryKey: ['phone', 'numbers'],
    queryFn: () => api<{ numbers: PhoneNumber[] }>('/v1/phone/numbers?limit=100'),
  });
}

export function useVoices() {
  return useQuery({
    queryKey: ['phone', 'voices'],
    queryFn: () => api<{ voices: PhoneVoice[] }>('/v1/phone/voices'),
    staleTime: Infinity,
  });
}

export function usePhoneModels() {
  return useQuery({
    queryKey: ['phone', 'models'],
    queryFn: () => api<{ models: PhoneModel[] }>('/v1/phone/models'),
    staleTime: Infinity,
  });
}

export const durationText = (sec: number | null) =>
  sec === null ? '—' : sec < 60 ? `${sec} s` : `${Math.floor(sec / 60)} min ${sec % 60} s`;
