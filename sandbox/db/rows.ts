/** Rows as the routes need them; minor units stay integers until a presenter formats them. */
export interface TransactionRow {
  pk: number;
  id: string;
  ref: string;
  at_utc: number;
  tz_offset_min: number;
  status: "completed" | "pending" | "failed";
  product: string;
  gallons_milli: number;
  price_milli: number;
  amount_cents: number;
  def_gallons_milli: number;
  def_amount_cents: number;
  def_category: string;
  source: string;
  created_at: number;
  updated_at: number;
  station_id: string;
  station_name: string;
  station_loc: string;
  station_city: string;
  station_state: string;
  station_address: string;
  station_zip: string;
  driver_id: string;
  driver_name: string;
  driver_truck: string | null;
  driver_email: string;
  card_last4: string;
  card_type: string;
}

export interface StationRow {
  pk: number;
  id: string;
  loc_num: string;
  name: string;
  brand: string;
  address: string;
  city: string;
  state: string;
  zip: string;
  lat: number;
  lng: number;
  phone: string;
  amenities: string;
  has_def: number;
  diesel_milli: number;
  unleaded_milli: number;
  def_milli: number | null;
  price_updated_at: string;
}

export interface CustomerRow {
  pk: number;
  id: string;
  code: string;
  name: string;
  active: number;
  fee_milli: number;
  created_at: string;
}

export interface TransactionFilter {
  customerPk: number;
  /** Inclusive bounds, epoch seconds. */
  fromSec?: number;
  toSec?: number;
  status?: string;
  search?: string;
}

export interface PageRequest {
  page: number;
  limit: number;
}
