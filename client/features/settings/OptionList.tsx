import type { SettingOption } from "../../../shared/providers/llm_catalog.ts";
import { optionGroups } from "./provider_fields.ts";

/** Options, under their groups where they have them. */
export function OptionList({ options }: { options: readonly SettingOption[] }) {
  return (
    <>
      {optionGroups(options).map(({ group, options: list }) => {
        const items = list.map((option) => (
          <option key={option.value} value={option.value}>{option.label}</option>
        ));
        return group === null ? items : <optgroup key={group} label={group}>{items}</optgroup>;
      })}
    </>
  );
}
