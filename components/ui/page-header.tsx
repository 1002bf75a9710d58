import type { ReactNode } from "react";

export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="mb-6">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl dark:text-slate-50">{title}</h1>
      {children === undefined ? null : <div className="mt-2 text-slate-700 dark:text-slate-300">{children}</div>}
    </div>
  );
}
