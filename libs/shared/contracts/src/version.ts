/** The service's release; equals package.json's version (a unit test keeps them together). */
export const SERVICE_VERSION = '0.1.0';
