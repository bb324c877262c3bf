/** The year the app was built in (vite.config.ts `define`): what a prerendered page shows until the app runs. */
declare const __BUILD_YEAR__: number;
