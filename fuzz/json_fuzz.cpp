// The two JSON readers that are not nlohmann's own DOM parser, against it on arbitrary bytes:
// src/core/json_parse.h (the full module's and the native library's reader) must give the same
// value and the same depth flag, and its writer the text nlohmann's dump writes, for the value
// read and for the bytes as one string (ill-formed UTF-8 replaced alike); wasm/router_json.h (the routing module's reader) must accept and
// refuse the same texts and, for documents shallow enough that it keeps them whole, print the
// same text.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "../tests/cpp/json_oracle.h"
#include "../wasm/router_json.h"
#include "common.h"
#include "core/json_parse.h"

using handoff::json_oracle::from_oracle;
using handoff::json_oracle::Json;
using handoff::json_oracle::Oracle;
using handoff::json_oracle::same;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  constexpr int kLimit = 6;
  bool too_deep = false;
  int deepest = 0;
  auto depth = [&](int level, Oracle::parse_event_t event, Oracle&) {
    bool opens = event == Oracle::parse_event_t::object_start || event == Oracle::parse_event_t::array_start;
    if (opens && level + 1 > deepest) deepest = level + 1;
    too_deep = too_deep || (opens && level >= kLimit);
    return true;
  };
  const Oracle expected = Oracle::parse(text, depth, /*allow_exceptions=*/false);

  const handoff::core::ParsedJson parsed = handoff::core::parse_json(text, kLimit);
  FUZZ_CHECK(parsed.value.is_discarded() == expected.is_discarded(), "parse_json accepts what nlohmann accepts");
  if (!expected.is_discarded()) {
    FUZZ_CHECK(same(parsed.value, expected), "parse_json reads the value nlohmann reads, number kinds included");
    FUZZ_CHECK(parsed.value.dump() == expected.dump(), "the same members in the same order");
    FUZZ_CHECK(parsed.too_deep == too_deep, "the depth flag as nlohmann's callback sees it");
    FUZZ_CHECK(handoff::core::dump_json(from_oracle(expected)) == expected.dump(-1, ' ', false, Oracle::error_handler_t::replace),
               "dump_json writes what nlohmann writes");
  }
  const Oracle bytes = std::string(text);
  FUZZ_CHECK(handoff::core::dump_json(Json(std::string(text))) == bytes.dump(-1, ' ', false, Oracle::error_handler_t::replace),
             "dump_json replaces ill-formed UTF-8 as nlohmann does");

  const auto routed = handoff::router_json::Value::parse(text.begin(), text.end(), nullptr, false);
  FUZZ_CHECK(routed.is_discarded() == expected.is_discarded(), "router_json accepts what nlohmann accepts");
  if (!expected.is_discarded() && deepest < 8) {
    const std::string printed = routed.dump();
    FUZZ_CHECK(printed == expected.dump(-1, ' ', false, Oracle::error_handler_t::replace), printed);
  }
  return 0;
}
