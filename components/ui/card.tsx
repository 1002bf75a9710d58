import { type ReactNode, useId } from "react";

export interface CardProps {
  title: string;
  children: ReactNode;
  className?: string;
}

/** A titled region of a page; the heading names the region for screen-reader landmarks navigation. */
export function Card({ title, children, className = "" }: CardProps) {
  const titleId = useId();
  return (
    <section
      aria-labelledby={titleId}
      className={`min-w-0 rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900 ${className}`.trim()}
    >
      <h2 id={titleId} className="text-base font-semibold text-slate-900 dark:text-slate-50">
        {title}
      </h2>
      <div className="mt-4">{children}</div>
    </section>
  );
}
