import type { ComponentProps } from "react";
import { TextField } from "./TextField.tsx";

type Props =
  & Omit<ComponentProps<typeof TextField>, "name" | "autoCapitalize" | "spellCheck" | "value" | "onChange">
  & {
    value: string;
    /** Called with the input's new value. */
    onValue: (value: string) => void;
  };

/**
 * A username input on TextField: named "username", required, without capitals or spell checking;
 * autoComplete is "username" unless given. Other props (label, hint, error, id, lengths...) go to TextField.
 */
export function UsernameField({ onValue, ...field }: Props) {
  return (
    <TextField
      name="username"
      autoComplete="username"
      autoCapitalize="none"
      spellCheck={false}
      required
      {...field}
      onChange={(event) => onValue(event.target.value)}
    />
  );
}
