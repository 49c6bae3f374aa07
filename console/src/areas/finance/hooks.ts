import type { FinanceCategory } from '@svc/client';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api';

/** The workspace's categories (the default chart and its own), for names and pickers. */
export function useCategories() {
  return useQuery({
    queryKey: ['finance', 'categories'],
    queryFn: () => api<{ categories: FinanceCategory[] }>('/v1/finance/categories?limit=100'),
  });
}

/** A category's name by id; uncategorised (null) and unknown ids say so. */
export function useCategoryName(): (id: string | null) => string {
  const categories = useCategories();
  return (id) =>
    id === null ? 'Uncategorised' : (categories.data?.categories.find((c) => c.id === id)?.name ?? 'Unknown category');
}
