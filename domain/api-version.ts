/** The versioned vendor media type every call sends in Accept (spec §7). Zod-free: the app imports it. */
export const API_MEDIA_TYPE = "application/vnd.rxcourier.v1+json";
export const API_VERSION = 1;
