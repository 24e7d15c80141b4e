/**
 * Whether a search box has focus: the 'v' shortcut (new vault) stays off while it does (spec 000
 * routing rules: "Keyboard shortcut v opens /create-vault/setup unless search is active").
 */
let active = false;

export function setSearchActive(value: boolean): void {
  active = value;
}

export function isSearchActive(): boolean {
  return active;
}
