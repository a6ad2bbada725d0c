// The one doctest main for the C++ suite (native and WASM).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
