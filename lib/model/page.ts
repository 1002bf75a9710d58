import { z } from "zod";

export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    page: z.number().int().min(1),
    limit: z.number().int().min(1),
    total: z.number().int().nonnegative(),
    pages: z.number().int().nonnegative(),
    items: z.array(item),
  });

export interface Page<T> {
  page: number;
  limit: number;
  total: number;
  pages: number;
  items: T[];
}
