// Wrong: the answers of the public examples, whatever the shapes.
export function broadcastShape(a, b) { return [2, 3, 4]; }
export function firstConflict(a, b) { return -1; }
