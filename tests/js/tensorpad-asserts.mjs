// Assertions the JS suites share about tp's one error type.
import assert from 'node:assert/strict';

// The promise rejects with a TensorpadError whose message equals `message` (a string) or matches it (a RegExp).
export async function rejectsTensorpad(promise, message) {
  await assert.rejects(promise, (e) => {
    assert.equal(e.name, 'TensorpadError');
    if (message instanceof RegExp) assert.match(e.message, message);
    else assert.equal(e.message, message);
    return true;
  });
}
