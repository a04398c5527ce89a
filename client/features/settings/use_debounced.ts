import { useEffect, useState } from "react";

/** Inputs that trigger checks or lookups settle for 500 ms first. */
export const DEBOUNCE_MS = 500;

/** The value once it has stopped changing for `delay` ms; the first value is taken at once. */
export function useDebounced<T>(value: T, delay = DEBOUNCE_MS): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}
