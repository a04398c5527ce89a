import { useLayoutEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ProviderKind } from "../../../shared/providers/llm_catalog.ts";
import { revealIn } from "../../lib/reveal.ts";
import { matchingOptions } from "./provider_form.ts";
import { ProviderKindIcon } from "./ProviderKindIcon.tsx";

export type PickerOption = { id: string; name: string; description: string; kind: ProviderKind };

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

/**
 * A searchable list of providers to choose one from: name, icon of its kind and description.
 * The list keeps the catalog's order, so rows never move under the pointer; instead it opens scrolled to the
 * chosen provider, which then heads the visible part of the list.
 */
export function ProviderPicker(
  { name, legend, options, selected, onSelect, searchLabel, disabled = false }: Props,
) {
  const { t } = useTranslation();
  const [query, setQuery] = useState("");
  const list = useRef<HTMLDivElement>(null);
  const revealed = useRef(false);
  const needle = query.trim().toLowerCase();
  const shown = matchingOptions(options, query);

  // Also after a search is cleared or the keyboard moves the choice past the edge of the box.
  useLayoutEffect(() => {
    const row = list.current?.querySelector<HTMLElement>(".provider-option.selected");
    if (!list.current || !row) return;
    revealIn(list.current, row, revealed.current ? "nearest" : "start");
    revealed.current = true;
  }, [selected, needle]);

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
      <div className="provider-list" id={`${name}-list`} ref={list}>
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
            <span className="provider-logo" title={t(`settings.providerKinds.${option.kind}`)}>
              <ProviderKindIcon kind={option.kind} />
            </span>
            <span className="provider-text">
              <span className="provider-name">{option.name}</span>
              <span className="visually-hidden">{t(`settings.providerKinds.${option.kind}`)}</span>
              <span className="provider-description">{option.description}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
