// Node 20 defines fetch(), and Emscripten 3.1.6's loader then tries to fetch() the .wasm by file
// path, which fails. Hiding fetch in this script's scope makes it read the file with fs instead.
var fetch = undefined;
