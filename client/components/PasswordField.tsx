import type { ComponentProps } from "react";
import { TextField } from "./TextField.tsx";

type Props = Omit<ComponentProps<typeof TextField>, "type" | "value" | "onChange"> & {
  value: string;
  /** Called with the input's new value. */
  onValue: (value: string) => void;
};

/**
 * A password input on TextField: type "password", required unless told otherwise; name "password" and
 * autoComplete "new-password" unless given. Other props (label, hint, error, id, lengths...) go to TextField.
 */
export function PasswordField({ onValue, ...field }: Props) {
  return (
    <TextField
      type="password"
      name="password"
      autoComplete="new-password"
      required
      {...field}
      onChange={(event) => onValue(event.target.value)}
    />
  );
}
