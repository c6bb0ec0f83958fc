/** Request body limits in bytes (decision 061). Its own module so the REST route files need not import the app. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;
export const BULK_BODY_LIMIT = 25 * 1024 * 1024;
