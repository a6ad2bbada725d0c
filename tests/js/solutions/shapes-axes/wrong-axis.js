// Wrong: the last sequence instead of the last token, and a feature track that fixes a position.
export function tokenVector(X, b, s) { return X.select(0, b).select(0, s); }
export function featureTrack(X, b, h) { return X.select(0, b).select(0, h); }
export function lastTokens(X) { return X.select(0, -1); }
