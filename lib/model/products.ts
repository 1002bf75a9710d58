// No zod here: browser code imports this module directly (not through lib/model's index, whose schemas would bring
// zod into every page's JavaScript).

/**
 * The products a station detail may price. The catalog (`GET /locations`) gives one price per station, the customer's
 * diesel price; the alternative detail shape gives `prices: {diesel, unleaded, def}`.
 */
export const STATION_PRODUCTS = ["diesel", "unleaded", "def"] as const;
export type StationProduct = (typeof STATION_PRODUCTS)[number];
