/** Strong passwords (zxcvbn score 4) for tests and the bench; tests search every request body for them. */
export const STRONG_PASSWORD = 'glacier orbit tangerine sextant 41';
export const NEW_PASSWORD = 'lantern basalt meridian cobalt 77';
