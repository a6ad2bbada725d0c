// Wrong: forgets that select removes an axis (the later axes shift left), and takes the first token instead
// of the last. (featureTrack is right.)
export function tokenVector(X, b, s) { return X.select(0, b).select(1, s); }
export function featureTrack(X, b, h) { return X.select(0, b).select(1, h); }
export function lastTokens(X) { return X.select(1, 0); }
