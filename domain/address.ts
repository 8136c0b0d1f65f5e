export interface Address {
  street_address: string;
  street_address_2?: string | null;
  city: string;
  state_abbreviation: string;
  zipcode: string;
}

/** Spec §3: street, optional second line, city, then state abbreviation and zipcode. */
export function formatAddress(address: Address): string {
  const parts = [address.street_address, address.street_address_2, address.city]
    .map((part) => part?.trim())
    .filter((part): part is string => Boolean(part));
  return `${parts.join(", ")}, ${address.state_abbreviation} ${address.zipcode}`;
}

/** A maps link built from the address (spec §7 "Other client behaviour"). */
export function mapsHref(address: Address): string {
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(formatAddress(address))}`;
}
