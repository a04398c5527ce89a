import { useState } from "react";
import { useTranslation } from "react-i18next";

export type PickerOption = { id: string; name: string; description: string };

type Props = {
  /** Names the radio group; also the prefix of element ids. */
  name: string;
  legend: string;
  options: readonly PickerOption[];
  selected: string;
  onSelect: (id: string) => void;
  /** When given, a search box with this text filters the list by name and description. */
  searchLabel?: string;
  disabled?: boolean;
};

/** Two letters standing in for a provider's logo. */
function initials(name: string): string {
  const words = name.split(/\s+/).filter(Boolean);
  return (words.length > 1 ? words[0][0] + words[1][0] : name.slice(0, 2)).toUpperCase();
}

/** A searchable list of providers to choose one from: name, logo and description (spec 01 §2.6). */
export function ProviderPicker(
  { name, legend, options, selected, onSelect, searchLabel, disabled = false }: Props,
) {
  const { t } = useTranslation();
  const [query, setQuery] = useState("");
  const needle = query.trim().toLowerCase();
  const shown = needle
    ? options.filter((option) => `${option.name} ${option.description}`.toLowerCase().includes(needle))
    : options;

  return (
    <fieldset className="provider-picker" disabled={disabled}>
      <legend className="visually-hidden">{legend}</legend>
      {searchLabel && (
        <input
          type="search"
          className="input provider-search"
          placeholder={searchLabel}
          aria-label={searchLabel}
          aria-controls={`${name}-list`}
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter") event.preventDefault();
          }}
        />
      )}
      <div className="provider-list" id={`${name}-list`}>
        {shown.length === 0 && <p className="muted provider-empty">{t("settings.noMatch")}</p>}
        {shown.map((option) => (
          <label key={option.id} className={`provider-option${option.id === selected ? " selected" : ""}`}>
            <input
              type="radio"
              className="visually-hidden"
              name={name}
              value={option.id}
              checked={option.id === selected}
              onChange={() =>
                onSelect(option.id)}
            />
            <span className="provider-logo" aria-hidden="true">{initials(option.name)}</span>
            <span className="provider-text">
              <span className="provider-name">{option.name}</span>
              <span className="provider-description">{option.description}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
