import type { z } from "zod";
import type { OpsAddressInput, OpsOrderAddressInput } from "../../../domain/contract/ops.ts";

type OrderAddress = z.infer<typeof OpsOrderAddressInput>;

interface AddressColumns<Position> {
  streetAddress: string;
  streetAddress2: string | null;
  city: string;
  stateAbbreviation: string;
  zipcode: string;
  latitude: Position;
  longitude: Position;
}

/** The address columns pharmacies and orders share, from the ops API's address (an order's position may be unknown: null). */
export function addressColumns(address: OpsAddressInput): AddressColumns<number>;
export function addressColumns(address: OrderAddress): AddressColumns<number | null>;
export function addressColumns(address: OrderAddress): AddressColumns<number | null> {
  return {
    streetAddress: address.street_address,
    streetAddress2: address.street_address_2 || null,
    city: address.city,
    stateAbbreviation: address.state_abbreviation,
    zipcode: address.zipcode,
    latitude: address.latitude ?? null,
    longitude: address.longitude ?? null,
  };
}
