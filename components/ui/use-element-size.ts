"use client";

import { type RefObject, useLayoutEffect, useState } from "react";

export interface ElementSize {
  width: number;
  height: number;
}

/**
 * An element's inner size in whole CSS px, followed through a ResizeObserver. `initial` until it is measured: the
 * server's HTML and the hydrating render use it alike (no mismatch), and the first measurement lands in a layout
 * effect, before the browser paints. A size of 0 (the element hidden, e.g. in print) keeps the last one.
 * A few lines of the platform's own API: no library is needed for this.
 */
export function useElementSize(ref: RefObject<HTMLElement | null>, initial: ElementSize): ElementSize {
  const [size, setSize] = useState(initial);
  useLayoutEffect(() => {
    const element = ref.current;
    if (element === null) return;
    const measure = () => {
      const width = element.clientWidth;
      const height = element.clientHeight;
      if (width === 0 || height === 0) return;
      setSize((last) => (last.width === width && last.height === height ? last : { width, height }));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => {
      observer.disconnect();
    };
  }, [ref]);
  return size;
}
