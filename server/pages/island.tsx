import type { ComponentType } from "react";

/**
 * Renders an island on the server and marks it for hydration: `client/main.tsx` finds `data-island`,
 * loads `client/islands/<name>.tsx` and hydrates it with the same JSON props.
 */
export function Island<P extends Record<string, unknown>>(
  { name, component: Component, props }: { name: string; component: ComponentType<P>; props: P },
) {
  return (
    <div className="island" data-island={name} data-props={JSON.stringify(props)}>
      <Component {...props} />
    </div>
  );
}
