import type { ReactNode } from "react";

/**
 * A small line icon on a 24-unit grid, in the text's colour. Decorative: the control or row beside it names
 * what it stands for.
 */
export function LineIcon(
  { children, className = "icon", size = 16, strokeWidth = 2, filled = false }: {
    children: ReactNode;
    className?: string;
    size?: number;
    strokeWidth?: number;
    filled?: boolean;
  },
) {
  return (
    <svg
      className={className}
      viewBox="0 0 24 24"
      width={size}
      height={size}
      fill={filled ? "currentColor" : "none"}
      stroke="currentColor"
      strokeWidth={strokeWidth}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  );
}
